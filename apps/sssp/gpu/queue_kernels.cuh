// The small kernels around relaxation: picking the next bucket after a multisplit, the smallest
// key of a queue, Near-Far's split of the far pile, and rebuilding a queue from the distances
// after an overflow.
#pragma once

#include <cstdint>

#include "relax.cuh"

namespace bkt::sssp::gpu {

/// What the host reads back after each round, in one copy.
struct round_info {
  unsigned long long bucket;         // delta-stepping: the lowest non-empty bucket of the split
  unsigned long long frontier_size;  // entries relaxed this round
  unsigned long long queued;         // size of the output queue (may exceed its capacity: overflow)
  unsigned long long far_queued;     // Near-Far: size of the far pile
  unsigned long long min_key_bits;   // smallest key of a queue (min_key_kernel)
};

/// After the multisplit of the queue into `buckets` buckets (bucket_offsets on the device): the
/// frontier is the lowest non-empty bucket unless that is the last (overflow) bucket, in which case
/// nothing is relaxed and the host moves the base to the smallest key. New entries go after the
/// split ones; the hub list starts empty.
__global__ void choose_bucket_kernel(const std::int64_t* bucket_offsets, int buckets, round_info* info,
                                     unsigned long long* out_count, unsigned long long* heavy_count) {
  int lowest = 0;
  while (lowest < buckets - 1 && bucket_offsets[lowest + 1] == bucket_offsets[lowest]) ++lowest;
  info->bucket = static_cast<unsigned long long>(lowest);
  info->frontier_size = lowest < buckets - 1 ? static_cast<unsigned long long>(bucket_offsets[lowest + 1]) : 0ull;
  *out_count = static_cast<unsigned long long>(bucket_offsets[buckets]);
  *heavy_count = 0;
}

/// info->min_key_bits = the smallest key's bit pattern (must start at all ones).
template <class D>
__global__ void min_key_kernel(const D* keys, std::int64_t size, round_info* info) {
  unsigned long long smallest = ~0ull;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < size;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    smallest = min(smallest, distance_bits(keys[i]));
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) smallest = min(smallest, __shfl_xor_sync(full_warp_mask, smallest, offset));
  if (lane_id() == 0 && smallest != ~0ull) atomicMin(&info->min_key_bits, smallest);
}

/// Near-Far: moves the live entries of the far pile below `threshold` to the near queue and keeps
/// the other live ones in `kept`; entries whose key is no longer their vertex's distance are
/// dropped.
template <class D>
__global__ void split_far_kernel(const D* keys, const vertex* vertices, std::int64_t size, const D* distances,
                                 D threshold, queue_view<D> near, queue_view<D> kept) {
  const std::int64_t warps = static_cast<std::int64_t>(gridDim.x) * (blockDim.x / 32);
  for (std::int64_t warp = (blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x) / 32; warp * 32 < size;
       warp += warps) {
    const std::int64_t i = warp * 32 + lane_id();
    D key{};
    vertex v = 0;
    bool live = false;
    if (i < size) {
      key = keys[i];
      v = vertices[i];
      live = key == distances[v];
    }
    warp_append(near, live && key < threshold, key, v);
    warp_append(kept, live && !(key < threshold), key, v);
  }
}

/// After an overflow dropped entries: the queue becomes every vertex whose distance went down
/// since it was last expanded, which is exactly the work left.
template <class D>
__global__ void rebuild_queue_kernel(const D* distances, const D* expanded, std::int64_t vertices, queue_view<D> queue) {
  const std::int64_t warps = static_cast<std::int64_t>(gridDim.x) * (blockDim.x / 32);
  for (std::int64_t warp = (blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x) / 32;
       warp * 32 < vertices; warp += warps) {
    const std::int64_t v = warp * 32 + lane_id();
    D d{};
    bool pending = false;
    if (v < vertices) {
      d = distances[v];
      pending = d < expanded[v];
    }
    warp_append(queue, pending, d, static_cast<vertex>(v));
  }
}

template <class D>
__global__ void fill_kernel(D* values, std::int64_t size, D value) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < size;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    values[i] = value;
}

/// The start of a run: every distance unreachable, nothing expanded, the source at 0 and queued.
template <class D>
__global__ void seed_source_kernel(D* distances, vertex source, D* keys, vertex* vertices, unsigned long long* count) {
  distances[source] = D{0};
  keys[0] = D{0};
  vertices[0] = source;
  *count = 1;
}

}  // namespace bkt::sssp::gpu
