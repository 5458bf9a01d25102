// Bucket offsets from bucket counts: an exclusive scan of at most 65536 values, so one block per
// row of counts (radix sort scans every pass's digit counts at once). Each row also names the
// bucket that holds every element, if one does, for the scatter's copy path.
#include "bkt/detail/multisplit/count_kernel.cuh"
#include "bkt/device/warp_scan.cuh"
#include "bkt/error.hpp"

namespace bkt::detail::multisplit {
namespace {

constexpr int offsets_block_threads = 1024;

__global__ void __launch_bounds__(offsets_block_threads)
    bucket_offsets_kernel(const unsigned long long* totals, int num_buckets, std::int64_t* offsets, int* lone_buckets) {
  totals += static_cast<std::int64_t>(blockIdx.x) * num_buckets;
  offsets += static_cast<std::int64_t>(blockIdx.x) * (num_buckets + 1);
  __shared__ unsigned long long warp_sums[offsets_block_threads / warp_threads];
  __shared__ unsigned long long carry;
  const int thread = static_cast<int>(threadIdx.x);
  const int warp = thread / warp_threads;
  const int lane = lane_id();
  if (thread == 0) carry = 0;
  if (thread == 0 && lone_buckets != nullptr) lone_buckets[blockIdx.x] = -1;
  for (int first = 0; first < num_buckets; first += offsets_block_threads) {
    const int b = first + thread;
    const unsigned long long count = b < num_buckets ? totals[b] : 0ull;
    unsigned long long inclusive = count;
#pragma unroll
    for (int offset = 1; offset < warp_threads; offset *= 2) {
      const unsigned long long other = __shfl_up_sync(full_warp_mask, inclusive, offset);
      if (lane >= offset) inclusive += other;
    }
    if (lane == warp_threads - 1) warp_sums[warp] = inclusive;
    __syncthreads();
    unsigned long long before = carry;
    for (int w = 0; w < warp; ++w) before += warp_sums[w];
    if (b < num_buckets) offsets[b] = static_cast<std::int64_t>(before + inclusive - count);
    if (b == num_buckets - 1) offsets[num_buckets] = static_cast<std::int64_t>(before + inclusive);
    __syncthreads();
    if (thread == offsets_block_threads - 1) carry = before + inclusive;
    __syncthreads();
  }
  if (lone_buckets == nullptr || carry == 0) return;
  for (int b = thread; b < num_buckets; b += offsets_block_threads)
    if (totals[b] == carry) lone_buckets[blockIdx.x] = b;
}

}  // namespace

void launch_bucket_offsets(const unsigned long long* totals, int num_buckets, std::int64_t* offsets, int* lone_buckets,
                           cudaStream_t stream, int rows) {
  bucket_offsets_kernel<<<rows, offsets_block_threads, 0, stream>>>(totals, num_buckets, offsets, lone_buckets);
  BKT_CHECK_LAUNCH(stream);
}

}  // namespace bkt::detail::multisplit
