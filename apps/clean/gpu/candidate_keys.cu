#include "candidate_keys.hpp"

#include <span>

#include "bkt/compact.hpp"
#include "bkt/device/occupancy.cuh"
#include "bkt/error.hpp"
#include "bkt/memory.hpp"
#include "bkt/select.hpp"
#include "block_max_key.cuh"
#include "peak_key.hpp"

namespace bkt::clean::gpu {
namespace {

constexpr int pack_threads = 256;

__global__ void __launch_bounds__(pack_threads) pack_candidate_keys_kernel(device_plane plane, std::uint64_t* keys,
                                                                           std::uint64_t* peak) {
  __shared__ std::uint64_t warp_keys[pack_threads / 32];
  __shared__ std::uint64_t block_key;
  const int pixels = plane.geometry.pixels();
  std::uint64_t best = no_peak;
  for (int q = blockIdx.x * pack_threads + threadIdx.x; q < pixels; q += gridDim.x * pack_threads) {
    const float value = plane.residual[q];
    const bool candidate = !isnan(value) && (plane.candidate_bits == nullptr ||
                                             ((plane.candidate_bits[q / 32] >> (q % 32)) & 1u) != 0);
    const std::uint64_t key = candidate ? pack_peak(value, static_cast<std::uint32_t>(q)) : no_peak;
    keys[q] = key;
    best = key > best ? key : best;
  }
  best = block_max_key(best, warp_keys, &block_key);
  if (threadIdx.x == 0 && best != no_peak)
    atomicMax(reinterpret_cast<unsigned long long*>(peak), static_cast<unsigned long long>(best));
}

}  // namespace

void pack_candidate_keys(const device_plane& plane, std::uint64_t* keys, std::uint64_t* peak, cudaStream_t stream) {
  BKT_CUDA_CHECK(cudaMemsetAsync(peak, 0, sizeof(std::uint64_t), stream));
  const int pixels = plane.geometry.pixels();
  if (pixels == 0) return;
  const int blocks = std::min((pixels + pack_threads - 1) / pack_threads, multiprocessor_count() * 8);
  pack_candidate_keys_kernel<<<blocks, pack_threads, 0, stream>>>(plane, keys, peak);
  BKT_CHECK_LAUNCH(stream);
}

candidate_list select_candidates(const std::uint64_t* keys, std::int64_t num_keys, float level, std::int64_t capacity,
                                 std::uint64_t* selected, std::uint64_t* capped, std::int64_t* d_count, workspace& ws,
                                 cudaStream_t stream) {
  BKT_EXPECTS(capacity >= 1, "select_candidates: capacity < 1");
  const compare_with<std::uint64_t> above{compare_op::greater, largest_key_at_or_below(level)};
  select_if<std::uint64_t>(std::span<const std::uint64_t>(keys, static_cast<std::size_t>(num_keys)),
                           std::span<std::uint64_t>(selected, static_cast<std::size_t>(num_keys)), d_count, above, ws,
                           stream);
  candidate_list list;
  list.count = read_sync(d_count, stream);
  list.keys = selected;
  if (list.count <= capacity) return list;
  // Too many for the minor cycle: keep the largest keys (largest |R|, ties to the smaller index),
  // sorted, and one more: the largest left out, where the minor cycle must stop.
  top_k_options options;
  options.largest = true;
  options.sorted = true;
  const std::size_t kept = static_cast<std::size_t>(capacity + 1);
  top_k<std::uint64_t, std::uint32_t>(std::span<const std::uint64_t>(selected, static_cast<std::size_t>(list.count)),
                                      capacity + 1, std::span<std::uint64_t>(capped, kept), std::span<std::uint32_t>(),
                                      ws, stream, options);
  list.keys = capped;
  list.count = capacity;
  list.capped = true;
  list.largest_left_out = peak_magnitude(read_sync(capped + capacity, stream));
  return list;
}

}  // namespace bkt::clean::gpu
