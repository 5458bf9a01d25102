// multiselect by buckets (core/src/select/multiselect.cu): classify every element into up to
// 16383 sampled buckets and count them per block; find each rank's bucket; gather the buckets
// that hold ranks (equality buckets answer at once) in one more classifying pass, each block
// into its own reserved range; then one block per gathered bucket selects its ranks by radix
// digits. The passes are the library's classify, count, scan, scatter.
#pragma once

#include <cub/block/block_scan.cuh>

#include <cstdint>

#include "bkt/detail/device/vector_sweep.cuh"
#include "bkt/detail/select/cell_classifier.cuh"
#include "bkt/detail/select/splitter_kernels.cuh"
#include "bkt/detail/warp/warp_queue.cuh"

namespace bkt::detail::select {

/// A bucket between two splitters that holds requested ranks: its elements are gathered and
/// searched. Its ranks are distinct_ranks[first_rank, end_rank).
struct target_bucket {
  unsigned long long size;
  int bucket;
  int first_rank;
  int end_rank;
};

inline constexpr unsigned short no_target = 0xffff;
inline constexpr unsigned not_gathered = 0xffffffffu;
/// Elements a thread of the count and gather passes loads before it classifies them: 64 bytes
/// (four 16-byte loads) in flight, within 64 registers at 1024 threads.
template <class T>
inline constexpr int multiselect_load_items = 64 / sizeof(T);

template <class T>
__global__ void sample_words_kernel(const T* data, std::int64_t size, int count, std::uint64_t seed,
                                    radix_word<T>* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) out[i] = select_bits(data[sample_position(seed, i, size)]);
}

/// Copies the span table into shared memory (block-wide; the caller synchronizes).
template <class W>
__device__ span_classifier<W> load_span(const classifier_arrays<W>& from, const classifier_header<W>& h,
                                        unsigned char* shared) {
  auto* table = reinterpret_cast<unsigned*>(shared);
  for (int c = threadIdx.x; c < span_classifier<W>::cells; c += blockDim.x) table[c] = from.span_cells[c];
  return {table, h.low, h.high, h.shift};
}

/// Shared memory of bucket_count_kernel: the classifier (either kind), a counter per bucket, a
/// queue per warp (splitters).
template <int BLOCK, class W>
struct count_shared {
  static constexpr std::size_t counts = shared_classifier<W>::bytes;
  static constexpr std::size_t queues = counts + sizeof(unsigned) * (2 * classifier_max_splitters + 2);
  static constexpr std::size_t bytes = queues + sizeof(W) * (BLOCK / 32) * warp_queue<W>::length;
};

/// block_counts[blockIdx.x * stride + b] = the elements of bucket b this block sweeps. The
/// gather pass sweeps the same elements per block (same grid, block size and sweep). With
/// splitters, elements in cells of several splitters wait in their warp's queue for a search in step.
template <int BLOCK, class T>
__global__ void __launch_bounds__(BLOCK, 1)
    bucket_count_kernel(const T* data, std::int64_t size, classifier_arrays<radix_word<T>> classifier,
                        unsigned* block_counts, int stride) {
  using W = radix_word<T>;
  extern __shared__ __align__(16) unsigned char shared[];
  const classifier_header<W> h = *classifier.header;
  using layout = count_shared<BLOCK, W>;
  auto* counts = reinterpret_cast<unsigned*>(shared + layout::counts);
  for (int b = threadIdx.x; b < h.buckets; b += BLOCK) counts[b] = 0;
  const std::int64_t thread = std::int64_t{blockIdx.x} * BLOCK + threadIdx.x, threads = std::int64_t{gridDim.x} * BLOCK;
  if (h.rule == bucket_rule::span) {
    const auto c = load_span(classifier, h, shared);
    __syncthreads();
    sweep_vectors_in_step<multiselect_load_items<T>>(data, size, thread, threads, [&](const T& x, bool real) {
      if (real) atomicAdd(&counts[c.bucket_of(select_bits(x))], 1u);
    });
  } else {
    const auto c = shared_classifier<W>::load(classifier, shared);
    __syncthreads();
    auto* queues = reinterpret_cast<W*>(shared + layout::queues);
    warp_queue<W> searches{queues + (threadIdx.x / warp_threads) * warp_queue<W>::length};
    const auto search = [&](W w) { atomicAdd(&counts[c.bucket_of(w)], 1u); };
    sweep_vectors_in_step<multiselect_load_items<T>>(data, size, thread, threads, [&](const T& x, bool real) {
      const W w = select_bits(x);
      const int b = c.simple_bucket_of(w);
      if (real && b >= 0) atomicAdd(&counts[b], 1u);
      searches.offer(real && b < 0, w, search);
    });
    searches.finish(search);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < h.buckets; b += BLOCK) block_counts[std::int64_t{blockIdx.x} * stride + b] = counts[b];
}

/// Per bucket b (one thread each): block_counts[k][b] becomes the elements of b in blocks before
/// k, and totals[b] all of them. The prefixes wrap beyond 2^32, but only buckets of fewer
/// elements are ever gathered.
template <class W>
__global__ void bucket_block_prefix_kernel(unsigned* block_counts, int blocks, int stride,
                                           const classifier_header<W>* header, unsigned long long* totals) {
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= header->buckets) return;
  constexpr int batch = 16;  // loads in flight per thread: one at a time waited on each
  unsigned long long sum = 0;
  for (int k0 = 0; k0 < blocks; k0 += batch) {
    unsigned here[batch];
#pragma unroll
    for (int k = 0; k < batch; ++k)
      if (k0 + k < blocks) here[k] = block_counts[std::int64_t{k0 + k} * stride + b];
#pragma unroll
    for (int k = 0; k < batch; ++k)
      if (k0 + k < blocks) {
        block_counts[std::int64_t{k0 + k} * stride + b] = static_cast<unsigned>(sum);
        sum += here[k];
      }
  }
  totals[b] = sum;
}

/// One block: each distinct rank (ascending) finds its bucket from the bucket starts. Ranks in
/// an equality bucket (splitters) are answered; the others name their target bucket, numbered in
/// bucket order, and their rank inside it.
template <int BLOCK, class T>
__global__ void __launch_bounds__(BLOCK)
    locate_ranks_kernel(classifier_arrays<radix_word<T>> classifier, const unsigned long long* totals,
                        unsigned long long* starts, const std::int64_t* ranks, int rank_count, int* rank_bucket,
                        unsigned long long* local_rank, T* results, target_bucket* targets, int* target_count) {
  using bucket_scan = cub::BlockScan<unsigned long long, BLOCK>;
  using rank_scan = cub::BlockScan<int, BLOCK>;
  __shared__ union {
    typename bucket_scan::TempStorage buckets;
    typename rank_scan::TempStorage ranks;
  } temp;
  const classifier_header<radix_word<T>> h = *classifier.header;
  const int buckets = h.buckets;
  // The bucket starts: each thread sums a run of buckets, one scan spreads the runs.
  constexpr int run = (2 * classifier_max_splitters + 1 + BLOCK - 1) / BLOCK;
  const int first_bucket = static_cast<int>(threadIdx.x) * run;
  unsigned long long total[run], mine = 0;
#pragma unroll
  for (int i = 0; i < run; ++i) {
    total[i] = first_bucket + i < buckets ? totals[first_bucket + i] : 0;
    mine += total[i];
  }
  unsigned long long start;
  bucket_scan(temp.buckets).ExclusiveSum(mine, start);
#pragma unroll
  for (int i = 0; i < run; ++i) {
    if (first_bucket + i < buckets) starts[first_bucket + i] = start;
    start += total[i];
  }
  __syncthreads();
  for (int i = threadIdx.x; i < rank_count; i += BLOCK) {
    // The last bucket starting at or before the rank holds it (empty buckets start where the next does).
    int below = 0, above = buckets;
    while (above - below > 1) {
      const int middle = (below + above) / 2;
      if (starts[middle] <= static_cast<unsigned long long>(ranks[i])) below = middle; else above = middle;
    }
    rank_bucket[i] = below;
  }
  __syncthreads();
  int found = 0;
  for (int first = 0; first < rank_count; first += BLOCK) {
    const int i = first + threadIdx.x;
    const int b = i < rank_count ? rank_bucket[i] : 1;
    // Else an equality bucket, or past the ranks.
    const bool gathered = i < rank_count && (h.rule == bucket_rule::span || b % 2 == 0);
    const bool opens = gathered && (i == 0 || rank_bucket[i - 1] != b);
    const bool closes = gathered && (i == rank_count - 1 || rank_bucket[i + 1] != b);
    int opened, chunk;
    rank_scan(temp.ranks).InclusiveSum(opens ? 1 : 0, opened, chunk);
    const int slot = found + opened - 1;
    if (opens) {
      targets[slot].size = totals[b];
      targets[slot].bucket = b;
      targets[slot].first_rank = i;
    }
    if (closes) targets[slot].end_rank = i + 1;
    if (gathered) local_rank[i] = static_cast<unsigned long long>(ranks[i]) - starts[b];
    if (i < rank_count && !gathered) results[i] = from_select_bits<T>(classifier.splitters[b / 2]);
    found += chunk;
    __syncthreads();  // temp is reused
  }
  if (threadIdx.x == 0) *target_count = found;
}

/// Shared memory of gather_targets_kernel. Splitters: beside the classifier, a cursor per target,
/// the target of each interval bucket, a bit per cell (does it meet a target's bucket?), a queue
/// per warp. Span buckets, inside the splitter classifier's room: the table, the target of each
/// bucket, a cursor per target.
template <int BLOCK, class W>
struct gather_shared {
  static constexpr int cells = shared_classifier<W>::cell_count;
  static constexpr std::size_t cursors = shared_classifier<W>::bytes;
  static constexpr std::size_t slots = cursors + sizeof(unsigned) * (classifier_max_splitters + 1);
  static constexpr std::size_t wanted = slots + sizeof(unsigned short) * (classifier_max_splitters + 1);
  static constexpr std::size_t queues = wanted + cells / 8;
  static constexpr std::size_t bytes = queues + sizeof(W) * (BLOCK / 32) * warp_queue<W>::length;
  static constexpr int most_span_buckets = 2 * classifier_max_splitters + 1;
  static constexpr std::size_t span_slots = span_classifier<W>::bytes;
  static constexpr std::size_t span_cursors = span_slots + sizeof(unsigned short) * (most_span_buckets + 1);
  static constexpr std::size_t span_fill = span_cursors + sizeof(unsigned) * most_span_buckets;
  /// Span buckets: each target's words wait in a buffer of shared memory until a whole run can be
  /// written at once (scattered 4-byte stores, one per gathered element, held the pass at the L2).
  static constexpr int run_words = 8;
  static constexpr int buffered_targets =
      static_cast<int>((bytes - span_fill - 16) / (sizeof(unsigned) + run_words * sizeof(W)));
  static constexpr std::size_t span_buffers = (span_fill + sizeof(unsigned) * buffered_targets + 15) / 16 * 16;
  static_assert(span_buffers + run_words * sizeof(W) * buffered_targets <= bytes);
};

/// Copies the words of this batch's targets (slot_base[s] != not_gathered) to gathered: target
/// s's words from block k start at slot_base[s] + its words in blocks before k. With splitters,
/// most elements lie in cells that meet no target and cost one bit test; the others wait in
/// their warp's queue until 32 of them fill one classification per lane.
template <int BLOCK, class T>
__global__ void __launch_bounds__(BLOCK, 1)
    gather_targets_kernel(const T* data, std::int64_t size, classifier_arrays<radix_word<T>> classifier,
                          const target_bucket* targets, int target_count, const unsigned* slot_base,
                          const unsigned* block_prefix, int stride, radix_word<T>* gathered) {
  using W = radix_word<T>;
  using layout = gather_shared<BLOCK, W>;
  extern __shared__ __align__(16) unsigned char shared[];
  const classifier_header<W> h = *classifier.header;
  const std::int64_t thread = std::int64_t{blockIdx.x} * BLOCK + threadIdx.x, threads = std::int64_t{gridDim.x} * BLOCK;
  const bool by_span = h.rule == bucket_rule::span;
  // The target of each bucket (span) or interval bucket 2j at [j] (splitters), and the cursors.
  auto* slot_of = reinterpret_cast<unsigned short*>(shared + (by_span ? layout::span_slots : layout::slots));
  auto* cursor = reinterpret_cast<unsigned*>(shared + (by_span ? layout::span_cursors : layout::cursors));
  const int slot_entries = by_span ? h.buckets : h.splitters + 1;
  for (int j = threadIdx.x; j < slot_entries; j += BLOCK) slot_of[j] = no_target;
  __syncthreads();
  for (int s = threadIdx.x; s < target_count; s += BLOCK) {
    if (slot_base[s] == not_gathered) continue;
    const int b = targets[s].bucket;
    cursor[s] = slot_base[s] + block_prefix[std::int64_t{blockIdx.x} * stride + b];
    slot_of[by_span ? b : b / 2] = static_cast<unsigned short>(s);
  }
  if (by_span) {
    // A buffered target's words wait for a whole run; without room for every target's buffer,
    // each word goes straight to memory.
    const auto c = load_span(classifier, h, shared);
    constexpr int run = layout::run_words;
    const bool buffered = target_count <= layout::buffered_targets;
    auto* fill = reinterpret_cast<unsigned*>(shared + layout::span_fill);
    auto* buffer = reinterpret_cast<W*>(shared + layout::span_buffers);
    if (buffered)
      for (int s = threadIdx.x; s < target_count; s += BLOCK) fill[s] = 0;
    __syncthreads();
    // Eight threads write a full buffer to its target's next run; one thread per target then moves
    // the cursor on. A buffer that overflows within a round sends the rest straight to memory.
    const auto write_runs = [&](bool whole_only) {
      __syncthreads();
      for (int s = threadIdx.x / run; s < target_count; s += BLOCK / run) {
        const unsigned filled = fill[s] < run ? fill[s] : run;
        const unsigned at = threadIdx.x % run;
        if ((filled == run || !whole_only) && at < filled) gathered[cursor[s] + at] = buffer[s * run + at];
      }
      __syncthreads();
      for (int s = threadIdx.x; s < target_count; s += BLOCK)
        if (fill[s] >= run || !whole_only) {
          cursor[s] += fill[s] < run ? fill[s] : run;
          fill[s] = 0;
        }
      __syncthreads();
    };
    int rounds = 0;
    sweep_vectors_in_rounds<multiselect_load_items<T>>(
        data, size, thread, threads, BLOCK,
        [&](const T& x, bool real) {
          const W w = select_bits(x);
          const unsigned short s = slot_of[c.bucket_of(w)];
          if (!real || s == no_target) return;
          const unsigned at = buffered ? atomicAdd(&fill[s], 1u) : run;
          if (at < run) buffer[s * run + at] = w; else gathered[atomicAdd(&cursor[s], 1u)] = w;
        },
        [&] {
          if (buffered && ++rounds % 2 == 0) write_runs(true);
        });
    if (buffered) write_runs(false);
    return;
  }
  const auto c = shared_classifier<W>::load(classifier, shared);
  __syncthreads();
  auto* wanted = reinterpret_cast<unsigned*>(shared + layout::wanted);
  for (int group = threadIdx.x; group < layout::cells / 32; group += BLOCK) {
    unsigned bits = 0;
    for (int i = 0; i < 32; ++i) {
      const int cell = 32 * group + i;
      for (int j = c.first_interval(cell); j <= c.last_interval(cell); ++j)
        if (slot_of[j] != no_target) bits |= 1u << i;
    }
    wanted[group] = bits;
  }
  __syncthreads();
  const bool below_wanted = slot_of[0] != no_target;
  warp_queue<W> wanted_words{reinterpret_cast<W*>(shared + layout::queues) +
                             (threadIdx.x / warp_threads) * warp_queue<W>::length};
  const auto place = [&](W w) {
    const int b = c.bucket_of(w);
    if (b % 2 != 0) return;
    const unsigned short s = slot_of[b / 2];
    if (s != no_target) gathered[atomicAdd(&cursor[s], 1u)] = w;
  };
  sweep_vectors_in_step<multiselect_load_items<T>>(data, size, thread, threads, [&](const T& x, bool real) {
    const W w = select_bits(x);
    bool take = below_wanted;
    if (!(w < c.low)) {
      const int cell = c.cell_of(w);
      take = (wanted[cell / 32] >> (cell % 32)) & 1u;
    }
    wanted_words.offer(real && take, w, place);
  });
  wanted_words.finish(place);
}

/// Radix digits of up to 12 bits: most gathered buckets of smooth data span fewer words than
/// that, so one round over them settles the rank.
inline constexpr int select_digit_bits = 12;

/// The word of rank `rank` among words[0, size), all of which lie in [low, high]: radix digits
/// below the highest bit in which low and high differ. Block-wide; `storage` holds the digit
/// histogram and passes each round's outcome to every thread.
template <int BLOCK, class W>
struct block_radix_select {
  static constexpr int digits = 1 << select_digit_bits;
  static constexpr int per_thread = digits / BLOCK;
  using scan = cub::BlockScan<unsigned, BLOCK>;
  struct storage {
    unsigned histogram[digits];
    typename scan::TempStorage temp;
    W chosen;
    unsigned remaining;
  };

  __device__ static W run(const W* words, unsigned size, W low, W high, unsigned rank, storage& s) {
    constexpr int bits = 8 * static_cast<int>(sizeof(W));
    const W differ = low ^ high;
    if (differ == 0) return low;
    int top = bits;  // bits [top, bits) of every word equal prefix's
    while (((differ >> (top - 1)) & 1) == 0) --top;
    W prefix = low;
    while (top > 0) {
      const int width = top < select_digit_bits ? top : select_digit_bits;
      const int shift = top - width;
      const W digit_mask = (W{1} << width) - 1;
      for (int d = threadIdx.x; d < digits; d += BLOCK) s.histogram[d] = 0;
      __syncthreads();
      // Eight loads in flight per thread before any counting: one at a time left the pass latency-bound.
      constexpr int loads = 8;
      for (unsigned first = threadIdx.x; first < size; first += loads * BLOCK) {
        W w[loads];
#pragma unroll
        for (int u = 0; u < loads; ++u)
          if (first + u * BLOCK < size) w[u] = words[first + u * BLOCK];
#pragma unroll
        for (int u = 0; u < loads; ++u)
          if (first + u * BLOCK < size && (top >= bits || (w[u] >> top) == (prefix >> top)))
            atomicAdd(&s.histogram[(w[u] >> shift) & digit_mask], 1u);
      }
      __syncthreads();
      // Each thread sums a run of digits; the thread whose run holds the rank walks it.
      unsigned mine = 0;
      for (int d = 0; d < per_thread; ++d) mine += s.histogram[threadIdx.x * per_thread + d];
      unsigned before;
      scan(s.temp).ExclusiveSum(mine, before);
      if (before <= rank && rank < before + mine) {
        int d = threadIdx.x * per_thread;
        while (before + s.histogram[d] <= rank) before += s.histogram[d++];
        s.chosen = (prefix & ~(digit_mask << shift)) | (W(d) << shift);
        s.remaining = rank - before;
      }
      __syncthreads();
      prefix = s.chosen;
      rank = s.remaining;
      top = shift;
    }
    return prefix;
  }
};

/// One block per listed target: each of its ranks by radix digits over its gathered words.
template <int BLOCK, class T>
__global__ void __launch_bounds__(BLOCK)
    select_in_targets_kernel(const radix_word<T>* gathered, const unsigned* slot_base, const target_bucket* targets,
                             const int* listed, classifier_arrays<radix_word<T>> classifier,
                             const unsigned long long* local_rank, T* results) {
  using W = radix_word<T>;
  using select = block_radix_select<BLOCK, W>;
  __shared__ typename select::storage storage;
  const int s = listed[blockIdx.x];
  const target_bucket t = targets[s];
  const classifier_header<W> h = *classifier.header;
  W low, high;
  if (h.rule == bucket_rule::span) {
    span_classifier<W>::bounds(classifier.span_cells, h.low, h.shift, h.top, t.bucket, &low, &high);
  } else {
    // Bucket 2j lies strictly between splitters j - 1 and j.
    const int j = t.bucket / 2;
    low = j == 0 ? W{0} : static_cast<W>(classifier.splitters[j - 1] + 1);
    high = j == h.splitters ? static_cast<W>(~W{0}) : static_cast<W>(classifier.splitters[j] - 1);
  }
  for (int i = t.first_rank; i < t.end_rank; ++i) {
    const W w = select::run(gathered + slot_base[s], static_cast<unsigned>(t.size), low, high,
                            static_cast<unsigned>(local_rank[i]), storage);
    if (threadIdx.x == 0) results[i] = from_select_bits<T>(w);
  }
}

/// One block per listed target whose words were sorted into sorted[slot_base[s] - sorted_from, ...).
template <class T>
__global__ void read_sorted_targets_kernel(const radix_word<T>* sorted, unsigned sorted_from, const unsigned* slot_base,
                                           const target_bucket* targets, const int* listed,
                                           const unsigned long long* local_rank, T* results) {
  const int s = listed[blockIdx.x];
  const target_bucket t = targets[s];
  for (int i = t.first_rank + threadIdx.x; i < t.end_rank; i += blockDim.x)
    results[i] = from_select_bits<T>(sorted[slot_base[s] - sorted_from + local_rank[i]]);
}

/// results[q] = distinct_results[index[q]] where index[q] >= 0.
template <class T>
__global__ void spread_results_kernel(const T* distinct_results, const std::int64_t* index, std::int64_t count,
                                      T* results) {
  for (std::int64_t q = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; q < count;
       q += std::int64_t{gridDim.x} * blockDim.x)
    if (index[q] >= 0) results[q] = distinct_results[index[q]];
}

}  // namespace bkt::detail::select
