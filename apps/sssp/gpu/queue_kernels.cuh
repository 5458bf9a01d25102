// The small pieces around relaxation: the bucket functor multisplit uses, picking the next bucket
// after a split, the smallest distance in a queue, and Near-Far's split of the far pile.
#pragma once

#include <cstdint>

#include "bkt/buckets.hpp"
#include "relax.cuh"

namespace bkt::sssp::gpu {

/// delta-stepping's buckets for queued vertices: the library's delta_buckets applied to each
/// vertex's current distance (distances do not change while multisplit runs: it runs between
/// relaxations on the same stream).
template <class D>
struct vertex_distance_buckets {
  const D* distances;
  delta_buckets<D> by_distance;
  __device__ int operator()(vertex v) const { return by_distance(distances[v]); }
  __host__ __device__ int num_buckets() const { return by_distance.num_buckets(); }
};

/// What the host reads back after each round, in one copy.
struct round_info {
  unsigned long long bucket;         // delta-stepping: the lowest non-empty bucket of the split
  unsigned long long frontier_size;  // vertices relaxed this round
  unsigned long long queued;         // size of the output queue
  unsigned long long far_queued;     // Near-Far: size of the far pile
  unsigned long long queue_first;    // delta-stepping: where the queue left after the round starts
  unsigned long long bucket_appends; // delta-stepping: the relaxed bucket's appended part, skipped included
  unsigned long long min_key_bits;   // smallest distance of a queue's vertices (min_distance_kernel)
};

/// A host round's frontier after a split (delta-stepping). A full split leaves the queue in
/// `buckets` regions (offsets on the device); the rounds after it walk those regions in order and
/// split only what was appended since (into the same buckets), instead of splitting the whole queue
/// again. The frontier is the lowest bucket from first_bucket on that holds anything: its region
/// (unless walked already: regions below regions_from) followed by its appended part. Each round
/// splits all the appends since the full split again, and the split is stable, so the appended
/// part of first_bucket begins with the append_skip vertices an earlier round relaxed already:
/// they are skipped (a vertex whose distance fell from a later bucket into this one may land among
/// them; it waits for the next full split). The last (overflow) bucket is never relaxed: the host
/// moves the base instead.
///
/// While the frontier is small, the buckets after the lowest join it, as many as keep it within
/// merge_up_to vertices: a round has a fixed cost (launches, a split, a round trip), and a
/// bucket of a few hundred vertices does not fill the GPU. Their regions are consecutive, and so
/// are their appended parts, so the frontier is still two pieces. (A wider bucket relaxes some
/// vertices before their distance is final; the method is label-correcting, so they are expanded
/// again when it falls.)
struct split_frontier {
  const std::int64_t* region_offsets;  // null: the frontier is a queue of relax_args::frontier_size
  const vertex* regions;
  const std::int64_t* append_offsets;  // null: nothing appended since the full split
  const vertex* appends;
  int buckets;
  int first_bucket;
  int regions_from;
  std::int64_t append_skip;
  std::int64_t merge_up_to;            // vertices: later buckets join the lowest while the frontier stays within
  round_info* info;                    // gets the bucket, the frontier's size and the queue's new start
  unsigned long long* out_count;       // a full split's: the queue's size (new vertices go after it)
};

/// A frontier in two pieces, [first, first + first_size) then second.
struct frontier_pieces {
  const vertex* first;
  std::int64_t first_size;
  const vertex* second;
  std::int64_t size;  // both pieces
};

/// The frontier of a split round; the caller with `publish` set records the choice in round_info.
__device__ inline frontier_pieces choose_bucket(const split_frontier& split, bool publish) {
  const std::int64_t* regions = split.region_offsets;
  const std::int64_t* appends = split.append_offsets;
  auto region_size = [&](int b) { return b >= split.regions_from ? regions[b + 1] - regions[b] : std::int64_t{0}; };
  auto skipped = [&](int b) { return b == split.first_bucket ? split.append_skip : std::int64_t{0}; };
  auto appended = [&](int b) { return appends != nullptr ? appends[b + 1] - appends[b] : std::int64_t{0}; };
  auto append_size = [&](int b) { return appended(b) - skipped(b); };
  const int overflow = split.buckets - 1;
  int lowest = split.first_bucket;
  while (lowest < overflow && region_size(lowest) + append_size(lowest) == 0) ++lowest;
  // The frontier takes buckets [lowest, last].
  int last = lowest;
  std::int64_t size = region_size(lowest) + append_size(lowest);  // unused when lowest is the overflow
  while (last + 1 < overflow) {
    const std::int64_t next = region_size(last + 1) + appended(last + 1);
    if (size + next > split.merge_up_to) break;
    size += next;
    ++last;
  }
  frontier_pieces f{};
  if (lowest < overflow) {
    const std::int64_t region_first = regions[max(lowest, split.regions_from)];
    f.first = split.regions + region_first;
    f.first_size = regions[last + 1] - region_first;  // regions_from <= lowest + 1
    f.second = appends != nullptr ? split.appends + appends[lowest] + skipped(lowest) : nullptr;
    f.size = size;
  }
  if (publish) {
    split.info->bucket = static_cast<unsigned long long>(last);
    split.info->frontier_size = static_cast<unsigned long long>(f.size);
    split.info->queue_first = static_cast<unsigned long long>(regions[last < overflow ? last + 1 : last]);
    split.info->bucket_appends = static_cast<unsigned long long>(appended(last));
    if (split.out_count != nullptr) *split.out_count = static_cast<unsigned long long>(regions[split.buckets]);
  }
  return f;
}

/// info->min_key_bits = the smallest distance of the vertices in `queue` (it must start at all ones).
template <class D>
__global__ void min_distance_kernel(const vertex* queue, std::int64_t size, const D* distances, round_info* info) {
  unsigned long long smallest = ~0ull;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < size;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    smallest = min(smallest, distance_bits(distances[queue[i]]));
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) smallest = min(smallest, __shfl_xor_sync(full_warp_mask, smallest, offset));
  if (lane_id() == 0 && smallest != ~0ull) atomicMin(&info->min_key_bits, smallest);
}

/// Near-Far: moves the vertices of the far pile below `threshold` to the near queue (unless they
/// are there already) and keeps the others in `kept`. A piled vertex may have been expanded since
/// it was piled (it joined the near queue when its distance fell); it is then expanded once more,
/// to no effect. threshold = unreachable: the whole pile moves (to hand it to the host's rounds).
template <class D>
__device__ void split_far_pile(const vertex* pile, std::int64_t size, const D* distances, unsigned* pending,
                               unsigned* piled, D threshold, const queue_view& near, const queue_view& kept,
                               std::int64_t first_warp, std::int64_t warps) {
  for (std::int64_t warp = first_warp; warp * 32 < size; warp += warps) {
    const std::int64_t i = warp * 32 + lane_id();
    vertex v = 0;
    bool to_near = false, stay = false;
    if (i < size) {
      v = pile[i];
      stay = !(distances[v] < threshold);
      if (!stay) {
        piled[v] = 0;
        to_near = atomicExch(pending + v, 1u) == 0u;
      }
    }
    warp_append(near, to_near, v);
    warp_append(kept, stay, v);
  }
}

template <class D>
__global__ void split_far_kernel(const vertex* pile, std::int64_t size, const D* distances, unsigned* pending,
                                 unsigned* piled, D threshold, queue_view near, queue_view kept) {
  split_far_pile(pile, size, distances, pending, piled, threshold, near, kept,
                 (blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x) / warp_threads,
                 static_cast<std::int64_t>(gridDim.x) * (blockDim.x / warp_threads));
}

/// The host's queue (vertices flagged pending, each once) becomes a far pile: flags move over.
__global__ void pile_queue_kernel(const vertex* queue, std::int64_t size, unsigned* pending, unsigned* piled,
                                  vertex* pile) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < size;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const vertex v = queue[i];
    pending[v] = 0;
    piled[v] = 1;
    pile[i] = v;
  }
}

template <class T>
__global__ void fill_kernel(T* values, std::int64_t size, T value) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < size;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    values[i] = value;
}

/// The start of a run (after the fills): the source at distance 0, pending, and queued.
template <class D>
__global__ void seed_source_kernel(D* distances, unsigned* pending, vertex source, vertex* queue, unsigned long long* count) {
  distances[source] = D{0};
  pending[source] = 1;
  queue[0] = source;
  *count = 1;
}

}  // namespace bkt::sssp::gpu
