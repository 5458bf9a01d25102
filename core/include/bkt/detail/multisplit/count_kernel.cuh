// Counting pass: how many elements fall in each bucket (multisplit's bucket sizes, and the
// histograms). Read-only and order-free, so each thread loads 16-byte vectors wherever they fall,
// several at a time to keep enough bytes in flight.
//
// Up to ~12K buckets, each block counts in shared memory (Hopper's shared atomics absorb even a
// whole warp adding to one counter well); a thread merges runs of equal buckets in a register
// first, so sorted, clustered and all-equal data make few atomics. More buckets add straight to
// the totals in global memory. Each block then adds its non-zero counters to the totals.
// One-byte keys count their 256 values instead (count_bytes_kernel), whatever the buckets.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "bkt/device/occupancy.cuh"
#include "bkt/detail/multisplit/shared_table.cuh"
#include "bkt/detail/device/vector_sweep.cuh"
#include "bkt/device/warp_scan.cuh"
#include "bkt/error.hpp"

namespace bkt::detail::multisplit {

/// Marks an unweighted count.
struct no_weight {};

/// A bucket functor with a cheap, branch-free first try (the histograms' even bins): quick(x, b)
/// sets b to an estimate within [0, num_buckets) and returns whether it is the bucket, which it is
/// for nearly every key; decided(x) gives the bucket of a key quick was unsure of.
template <class Fn, class Key>
concept quick_bucket_functor = requires(const Fn& fn, const Key& key, int& bucket) {
  { fn.quick(key, bucket) } -> std::same_as<bool>;
  { fn.decided(key) } -> std::same_as<int>;
};

enum class count_strategy { shared, global };

inline constexpr int count_block_threads = 512;
// Elements a thread loads before it counts them; a macro for tuning runs (bench/tune_histogram.cu).
#ifndef BKT_COUNT_LOAD_ITEMS
#define BKT_COUNT_LOAD_ITEMS 16
#endif
inline constexpr int count_items_per_load_round = BKT_COUNT_LOAD_ITEMS;
// Blocks of count_block_threads an SM must hold, for keys of up to 4 bytes: 2 caps a thread at 64
// registers; a macro for tuning runs (bench/tune_histogram.cu; the measurements are in
// docs/primitives/histogram.md). Wider keys keep one block (128 registers): at 64 a round of
// 16 doubles spills.
#ifndef BKT_COUNT_MIN_BLOCKS
#define BKT_COUNT_MIN_BLOCKS 2
#endif
template <class T>
inline constexpr int count_min_blocks = sizeof(T) <= 4 ? BKT_COUNT_MIN_BLOCKS : 1;
inline constexpr std::size_t shared_counter_bytes = 48 * 1024;

template <class T, class W>
struct count_args {
  using total_type = std::conditional_t<std::is_same_v<W, no_weight>, unsigned long long, double>;
  const T* data;
  const W* weights;          // null when unweighted
  std::int64_t num_items;
  int num_buckets;
  total_type* totals;        // buckets [0, num_buckets - 1), zeroed
  total_type* last_total;    // bucket num_buckets - 1 (the histograms' "outside"), zeroed
  unsigned counters_offset;  // where the shared counters start, after the functor's table
};

template <class Args>
__device__ __forceinline__ typename Args::total_type* total_of(const Args& args, unsigned bucket) {
  return bucket + 1 < static_cast<unsigned>(args.num_buckets) ? args.totals + bucket : args.last_total;
}

template <class T, class W, count_strategy Strategy, class Fn>
__global__ void __launch_bounds__(count_block_threads, count_min_blocks<T>)
    count_kernel(count_args<T, W> args, Fn fn_global) {
  constexpr bool weighted = !std::is_same_v<W, no_weight>;
  using counter = std::conditional_t<weighted, double, unsigned>;
  using total_type = typename count_args<T, W>::total_type;

  extern __shared__ __align__(16) unsigned char shared[];
  const auto fn = shared_table<Fn>::bind(fn_global, shared);
  counter* counters = reinterpret_cast<counter*>(shared + args.counters_offset);
  constexpr bool use_shared = Strategy == count_strategy::shared;
  if constexpr (use_shared)
    for (int b = static_cast<int>(threadIdx.x); b < args.num_buckets; b += count_block_threads) counters[b] = 0;
  __syncthreads();

  const std::int64_t threads = static_cast<std::int64_t>(gridDim.x) * count_block_threads;
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * count_block_threads + threadIdx.x;
  auto add = [&](unsigned bucket, counter amount) {
    if constexpr (use_shared) atomicAdd(&counters[bucket], amount);
    else atomicAdd(total_of(args, bucket), static_cast<total_type>(amount));
  };

  if constexpr (weighted) {
    for (std::int64_t i = thread; i < args.num_items; i += threads)
      add(clamped_bucket(fn, args.data[i], args.num_buckets), static_cast<double>(args.weights[i]));
  } else {
    // Runs of equal buckets merge in a register before they reach an atomic. (The first run's
    // flush may add 0 to bucket 0: one atomic a thread, where a test would cost one an element.)
    unsigned run_bucket = 0, run_length = 0;
    auto merge = [&](unsigned bucket, unsigned amount) {
      const bool flush = bucket != run_bucket;
      if (flush) add(run_bucket, run_length);
      run_bucket = bucket;
      run_length = (flush ? 0u : run_length) + amount;
    };
    if constexpr (quick_bucket_functor<std::remove_cvref_t<decltype(fn)>, T>) {
      // An unsure estimate counts 0 (a run may end there: it costs at most an atomic of 0); the
      // recheck counts the element, in a run of its own, so that data on edges merges too.
      sweep_vectors_with_recheck<count_items_per_load_round>(
          args.data, args.num_items, thread, threads,
          [&](const T& x) {
            int bucket;
            const bool sure = fn.quick(x, bucket);
            merge(static_cast<unsigned>(bucket), sure);
            return sure;
          },
          [&](const T& x) {
            int estimate;
            if (!fn.quick(x, estimate)) merge(static_cast<unsigned>(fn.decided(x)), 1);
          });
    } else {
      sweep_vectors<count_items_per_load_round>(args.data, args.num_items, thread, threads,
                                                [&](const T& x) { merge(clamped_bucket(fn, x, args.num_buckets), 1); });
    }
    if (run_length) add(run_bucket, run_length);
  }

  if constexpr (use_shared) {
    __syncthreads();
    for (int b = static_cast<int>(threadIdx.x); b < args.num_buckets; b += count_block_threads)
      if (counters[b] != counter{0}) atomicAdd(total_of(args, static_cast<unsigned>(b)), static_cast<total_type>(counters[b]));
  }
}

/// Keys of one byte take 256 values, so a block counts values, not buckets: one shared atomic per
/// element and no bucket arithmetic, with the bucket functor run once per value at the end. Each
/// lane counts in its own column ([value][lane]), so a warp's atomics never meet in a bank,
/// whatever the data. Loads of 64 elements a thread keep enough bytes in flight.
inline constexpr int byte_values = 256;
inline constexpr int byte_loads = 64;
inline constexpr std::size_t byte_counter_bytes = sizeof(unsigned) * byte_values * warp_threads;

template <class T, class Fn>
__global__ void __launch_bounds__(count_block_threads) count_bytes_kernel(count_args<T, no_weight> args, Fn fn) {
  static_assert(sizeof(T) == 1 && count_block_threads >= byte_values);
  extern __shared__ __align__(16) unsigned char shared[];
  auto* counters = reinterpret_cast<unsigned*>(shared);
  for (int i = static_cast<int>(threadIdx.x); i < byte_values * warp_threads; i += count_block_threads) counters[i] = 0;
  __syncthreads();

  const std::int64_t threads = static_cast<std::int64_t>(gridDim.x) * count_block_threads;
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * count_block_threads + threadIdx.x;
  const auto lane = static_cast<unsigned>(lane_id());
  sweep_vectors<byte_loads>(args.data, args.num_items, thread, threads, [&](const T& x) {
    std::uint8_t value;
    std::memcpy(&value, &x, 1);
    atomicAdd(&counters[value * warp_threads + lane], 1u);
  });
  __syncthreads();

  if (threadIdx.x >= byte_values) return;
  // Thread v sums value v's columns, starting at its own lane so that a warp's reads take distinct banks.
  const auto value = static_cast<std::uint8_t>(threadIdx.x);
  unsigned count = 0;
  for (unsigned l = 0; l < warp_threads; ++l) count += counters[value * warp_threads + (l + lane) % warp_threads];
  T key;
  std::memcpy(&key, &value, 1);
  const unsigned bucket = clamped_bucket(fn, key, args.num_buckets);
  // The lanes whose values share a bucket add as one (few buckets: few global atomics per block).
  const unsigned peers = __match_any_sync(full_warp_mask, bucket);
  unsigned sum = 0;
  for (int l = 0; l < warp_threads; ++l) {
    const unsigned other = __shfl_sync(full_warp_mask, count, l);
    if (peers >> l & 1u) sum += other;
  }
  if (sum != 0 && lane == static_cast<unsigned>(__ffs(static_cast<int>(peers)) - 1))
    atomicAdd(total_of(args, bucket), static_cast<unsigned long long>(sum));
}

/// offsets[b] = the sum of totals[0, b) for b in [0, num_buckets] (core/src/multisplit/offsets.cu);
/// for `rows` rows of totals (num_buckets apart) and of offsets (num_buckets + 1 apart). Unless
/// null, lone_buckets[row] is the bucket that holds all of the row's elements, or -1.
void launch_bucket_offsets(const unsigned long long* totals, int num_buckets, std::int64_t* offsets, int* lone_buckets,
                           cudaStream_t stream, int rows = 1);

}  // namespace bkt::detail::multisplit

namespace bkt::detail::multisplit {

/// Adds the bucket counts of data[0, num_items) to totals[0, num_buckets - 1) and *last_total
/// (bucket num_buckets - 1). Both must be zeroed (or hold counts to add to).
template <class T, class W, class Fn>
void launch_count(const T* data, const W* weights, std::int64_t num_items, int num_buckets, Fn fn,
                  typename count_args<T, W>::total_type* totals, typename count_args<T, W>::total_type* last_total,
                  cudaStream_t stream) {
  if (num_items == 0) return;
  constexpr bool weighted = !std::is_same_v<W, no_weight>;
  // Enough blocks to fill the GPU, no more than the data needs, and at most 2^31 elements per
  // block so that 32-bit shared counters cannot overflow.
  auto grid = [&](auto kernel, std::size_t shared_bytes, std::int64_t block_items) {
    allow_shared_bytes(kernel, shared_bytes);
    const std::int64_t needed = (num_items + block_items - 1) / block_items;
    const std::int64_t floor = (num_items >> 31) + 1;
    return static_cast<unsigned>(
        std::max(std::min(needed, resident_blocks(kernel, count_block_threads, shared_bytes)), floor));
  };
  const count_args<T, W> args{data, weights, num_items, num_buckets, totals, last_total, 0};
  if constexpr (sizeof(T) == 1 && !weighted) {
    auto kernel = count_bytes_kernel<T, Fn>;
    kernel<<<grid(kernel, byte_counter_bytes, std::int64_t{count_block_threads} * byte_loads), count_block_threads,
             byte_counter_bytes, stream>>>(args, fn);
  } else {
    const std::size_t counter_bytes = static_cast<std::size_t>(num_buckets) * (weighted ? sizeof(double) : sizeof(unsigned));
    const count_strategy strategy =
        counter_bytes <= shared_counter_bytes ? count_strategy::shared : count_strategy::global;
    const std::size_t table_bytes = shared_table_bytes(fn);
    const std::size_t shared_bytes = table_bytes + (strategy == count_strategy::global ? 0 : counter_bytes);
    auto kernel = strategy == count_strategy::shared ? count_kernel<T, W, count_strategy::shared, Fn>
                                                    : count_kernel<T, W, count_strategy::global, Fn>;
    auto shared_args = args;
    shared_args.counters_offset = static_cast<unsigned>(table_bytes);
    kernel<<<grid(kernel, shared_bytes, std::int64_t{count_block_threads} * count_items_per_load_round),
             count_block_threads, shared_bytes, stream>>>(shared_args, fn);
  }
  BKT_CHECK_LAUNCH(stream);
}

}  // namespace bkt::detail::multisplit
