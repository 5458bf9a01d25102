// The counting read of radix sort: one sweep over the keys counts the digits of up to eight passes
// at once (Onesweep's upfront histogram), so that each pass after it reads and writes each key once.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>

#include "bkt/device/occupancy.cuh"
#include "bkt/detail/device/vector_sweep.cuh"
#include "bkt/detail/radix_sort/plan.hpp"
#include "bkt/error.hpp"

namespace bkt::detail::radix_sort {

inline constexpr int digit_count_threads = 512;
inline constexpr int digit_count_load_items = 16;
inline constexpr int digit_count_passes = 8;  // passes counted per sweep

template <class Key>
struct digit_count_args {
  const Key* keys;
  std::int64_t num_items;
  int passes;                                   // at most digit_count_passes
  int digit_stride;                             // counters per pass
  radix_digit<Key> digits[digit_count_passes];
  unsigned long long* totals;                   // passes x digit_stride, zeroed
};

/// Each block counts in shared memory, one atomic per key and pass. (Merging runs of equal digits
/// in registers first, to spare sorted and all-equal keys their atomics, made every input slower,
/// all-equal keys included: the same-address atomics of one warp cost less than a compare and a
/// branch per key and pass; docs/primitives/radix-sort.md.) The number of passes is a template
/// parameter: a run-time count left every key testing all eight passes, which made a one-pass
/// count far slower than a read of the keys.
template <class Key, int Passes>
__global__ void __launch_bounds__(digit_count_threads) digit_count_kernel(digit_count_args<Key> args) {
  extern __shared__ unsigned counters[];  // Passes x digit_stride
  const int num_counters = Passes * args.digit_stride;
  for (int i = static_cast<int>(threadIdx.x); i < num_counters; i += digit_count_threads) counters[i] = 0;
  __syncthreads();

  const std::int64_t threads = static_cast<std::int64_t>(gridDim.x) * digit_count_threads;
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * digit_count_threads + threadIdx.x;
  sweep_vectors<digit_count_load_items>(args.keys, args.num_items, thread, threads, [&](const Key& key) {
#pragma unroll
    for (int pass = 0; pass < Passes; ++pass) atomicAdd(&counters[pass * args.digit_stride + args.digits[pass](key)], 1u);
  });

  __syncthreads();
  for (int i = static_cast<int>(threadIdx.x); i < num_counters; i += digit_count_threads)
    if (counters[i] != 0) atomicAdd(&args.totals[i], static_cast<unsigned long long>(counters[i]));
}

/// The kernel for `passes` (1 to digit_count_passes) passes.
template <class Key, int Passes = digit_count_passes>
auto digit_count_kernel_for(int passes) {
  if constexpr (Passes > 1)
    if (passes < Passes) return digit_count_kernel_for<Key, Passes - 1>(passes);
  return &digit_count_kernel<Key, Passes>;
}

/// Adds the digit counts of every pass of `plan` to totals (passes x digit_stride, zeroed): one
/// sweep per eight passes.
template <class Key>
void launch_digit_count(const Key* keys, std::int64_t num_items, const pass_plan& plan, unsigned long long* totals,
                        cudaStream_t stream) {
  if (num_items == 0) return;
  for (int first = 0; first < plan.passes; first += digit_count_passes) {
    digit_count_args<Key> args{keys, num_items, std::min(digit_count_passes, plan.passes - first),
                               plan.digit_stride(), {}, totals + static_cast<std::int64_t>(first) * plan.digit_stride()};
    for (int pass = 0; pass < args.passes; ++pass) args.digits[pass] = plan.digit<Key>(first + pass);
    const auto kernel = digit_count_kernel_for<Key>(args.passes);
    const std::size_t shared_bytes = sizeof(unsigned) * static_cast<std::size_t>(args.passes * args.digit_stride);
    // Enough blocks to fill the GPU, no more than the data needs, and at most 2^31 keys per block
    // so that the 32-bit shared counters cannot overflow.
    constexpr std::int64_t block_items = std::int64_t{digit_count_threads} * digit_count_load_items;
    const std::int64_t needed = (num_items + block_items - 1) / block_items;
    std::int64_t blocks = std::min(needed, resident_blocks(kernel, digit_count_threads, shared_bytes));
    blocks = std::max(blocks, (num_items >> 31) + 1);
    kernel<<<static_cast<unsigned>(blocks), digit_count_threads, shared_bytes, stream>>>(args);
    BKT_CHECK_LAUNCH(stream);
  }
}

}  // namespace bkt::detail::radix_sort
