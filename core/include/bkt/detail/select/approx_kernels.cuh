// approx_select: a sorted sample names candidates around the target rank; one pass counts, for
// every candidate, the elements below it and equal to it, which ranks each candidate exactly.
#pragma once

#include <cstdint>

#include "bkt/detail/select/arguments.hpp"
#include "bkt/detail/select/block_records.cuh"
#include "bkt/detail/select/cell_classifier.cuh"
#include "bkt/detail/warp/warp_queue.cuh"

namespace bkt::detail::select {

/// Sorts a stratified sample of the input and stores `count` candidates evenly spread over the
/// sample ranks [target rank - 4 sd, target rank + 4 sd] (ascending, possibly repeated).
template <int BLOCK, int ITEMS, class T, class P>
__global__ void __launch_bounds__(BLOCK)
    approx_candidates_kernel(input_records<T, P> source, std::int64_t target, int count, std::int64_t sample_size,
                             std::uint64_t seed,
                             radix_word<T>* candidate_words, P* candidate_positions) {
  using W = radix_word<T>;
  using sorter = block_record_sort<BLOCK, ITEMS, W, P>;
  extern __shared__ __align__(16) unsigned char shared[];
  auto& temp = *reinterpret_cast<typename sorter::storage*>(shared);
  constexpr std::int64_t samples = std::int64_t{BLOCK} * ITEMS;
  std::int64_t drawn = source.size < samples ? source.size : samples;
  if (sample_size < drawn) drawn = sample_size;
  record<W, P> r[ITEMS];
  sorted_sample<BLOCK, ITEMS>(source, drawn, seed, r, temp);
  const auto ranks = window_ranks::around(target, source.size, drawn, 4.0f);
  const std::int64_t low = ranks.low < 0 ? 0 : ranks.low;
  const std::int64_t high = ranks.high >= drawn ? drawn - 1 : ranks.high;
  // Candidate c sits at sample rank low + floor(span * c / (count - 1)) (the middle when count is
  // 1): the candidates at rank r are c0 <= c < c1, found from r without a search.
  const std::int64_t span = high - low, steps = count - 1;
  for (int i = 0; i < ITEMS; ++i) {
    const std::int64_t rank = std::int64_t{threadIdx.x} * ITEMS + i;
    if (rank < low || rank > high) continue;
    std::int64_t c0, c1;
    if (count == 1) {
      c0 = 0;
      c1 = rank == (low + high) / 2 ? 1 : 0;
    } else if (span == 0) {
      c0 = 0;
      c1 = count;
    } else {
      const std::int64_t d = rank - low;
      c0 = (d * steps + span - 1) / span;
      c1 = rank == high ? count : ((d + 1) * steps + span - 1) / span;
    }
    for (std::int64_t c = c0; c < c1; ++c) {
      candidate_words[c] = r[i].word;
      candidate_positions[c] = r[i].position;
    }
  }
}

/// counts[2c] = elements between candidate c - 1 and c (exclusive), counts[2c + 1] = elements
/// equal to candidate c (the first of repeated ones); counts[2 * count] = elements above all.
template <int BLOCK, class T>
__global__ void __launch_bounds__(BLOCK)
    approx_count_kernel(const T* data, std::int64_t size, const radix_word<T>* candidate_words, int count,
                        unsigned long long* counts) {
  using W = radix_word<T>;
  constexpr int warps = BLOCK / 32;
  __shared__ W words[approx_max_candidates];
  __shared__ unsigned bins[2 * approx_max_candidates + 1];
  __shared__ W queues[warps][warp_queue<W>::length];
  for (int c = threadIdx.x; c < count; c += BLOCK) words[c] = candidate_words[c];
  for (int b = threadIdx.x; b <= 2 * count; b += BLOCK) bins[b] = 0;
  __syncthreads();
  const W lowest = words[0], highest = words[count - 1];
  const auto place = [&](W w) {
    const int c = first_not_below(words, count, w);
    atomicAdd(&bins[2 * c + (words[c] == w ? 1 : 0)], 1u);
  };
  // Most elements lie below or above every candidate: those two counts stay in registers. The
  // few among the candidates wait in the warp's queue until 32 of them fill one search per lane
  // (searched one at a time, they held the whole warp in a divergent binary search).
  unsigned below_all = 0, above_all = 0;  // a thread sees far fewer than 2^32 elements
  warp_queue<W> among_candidates{queues[threadIdx.x / 32]};
  const auto classify = [&](const T& x, bool real) {
    const W w = select_bits(x);
    below_all += real && w < lowest;
    above_all += real && highest < w;
    among_candidates.offer(real && !(w < lowest) && !(highest < w), w, place);
  };
  // Whole tiles of an aligned input: each thread issues all its 16-byte loads before it classifies
  // (one load in flight per thread left the pass latency-bound, near a third of the bandwidth).
  constexpr int loads = 4, vector = 16 / sizeof(T), per_thread = loads * vector;
  constexpr std::int64_t tile = std::int64_t{BLOCK} * per_thread;
  const bool aligned = reinterpret_cast<std::uintptr_t>(data) % 16 == 0;
  const std::int64_t tiles = aligned ? size / tile : 0;
  for (std::int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const uint4* from = reinterpret_cast<const uint4*>(data + t * tile);
    uint4 raw[loads];
    for (int j = 0; j < loads; ++j) raw[j] = __ldg(from + j * BLOCK + threadIdx.x);
    const T* values = reinterpret_cast<const T*>(raw);
#pragma unroll
    for (int e = 0; e < per_thread; ++e) classify(values[e], true);
  }
  // The rest, with whole warps in step (the queue needs every lane).
  const std::int64_t stride = std::int64_t{gridDim.x} * BLOCK;
  const std::int64_t rest = tiles * tile, rounded = rest + (size - rest + stride - 1) / stride * stride;
  for (std::int64_t i = rest + blockIdx.x * std::int64_t{BLOCK} + threadIdx.x; i < rounded; i += stride)
    classify(i < size ? data[i] : T{}, i < size);
  among_candidates.finish(place);
  for (int offset = 16; offset > 0; offset /= 2) {
    below_all += __shfl_down_sync(0xffffffffu, below_all, offset);
    above_all += __shfl_down_sync(0xffffffffu, above_all, offset);
  }
  __syncthreads();
  if (lane_id() == 0) {
    if (below_all) atomicAdd(&counts[0], static_cast<unsigned long long>(below_all));
    if (above_all) atomicAdd(&counts[2 * count], static_cast<unsigned long long>(above_all));
  }
  for (int b = threadIdx.x; b <= 2 * count; b += BLOCK)
    if (bins[b]) atomicAdd(&counts[b], static_cast<unsigned long long>(bins[b]));
}

/// Ranks every candidate and writes the one closest to `target`. The block stages the counts in
/// shared memory (one thread reading them from global memory waited on each load in turn); one
/// thread then walks them.
template <int BLOCK, class T, class P, class Result>
__global__ void __launch_bounds__(BLOCK)
    approx_choose_kernel(const T* data, const radix_word<T>* candidate_words, const P* candidate_positions,
                         int count, const unsigned long long* counts, std::int64_t target, Result* result) {
  using W = radix_word<T>;
  __shared__ W words[approx_max_candidates];
  __shared__ unsigned long long staged[2 * approx_max_candidates];
  for (int c = threadIdx.x; c < count; c += BLOCK) words[c] = candidate_words[c];
  for (int b = threadIdx.x; b < 2 * count; b += BLOCK) staged[b] = counts[b];
  __syncthreads();
  if (threadIdx.x != 0) return;
  std::int64_t running = 0, first = 0, last = -1, best_error = -1, best_first = 0, best_last = 0;
  int best = 0;
  for (int c = 0; c < count; ++c) {
    running += static_cast<std::int64_t>(staged[2 * c]);
    if (c == 0 || words[c] != words[c - 1]) {
      first = running;
      last = running + static_cast<std::int64_t>(staged[2 * c + 1]) - 1;
    }
    running += static_cast<std::int64_t>(staged[2 * c + 1]);
    const std::int64_t error = target < first ? first - target : (target > last ? target - last : 0);
    if (best_error < 0 || error < best_error) {
      best_error = error;
      best = c;
      best_first = first;
      best_last = last;
    }
  }
  *result = Result{data[candidate_positions[best]], best_first, best_last, best_error};
}

}  // namespace bkt::detail::select
