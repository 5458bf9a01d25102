#include "clark_minor.hpp"

#include <algorithm>
#include <cmath>

#include "block_max_key.cuh"
#include "bkt/error.hpp"
#include "device_limits.hpp"
#include "peak_key.hpp"

namespace bkt::clean::gpu {
namespace {

constexpr int model_bytes = minor_capacity * static_cast<int>(sizeof(float));

int patch_cells(int half) { return (2 * half + 1) * (2 * half + 1); }

std::size_t shared_bytes(int half) {
  return static_cast<std::size_t>(patch_cells(half)) * sizeof(float) + model_bytes;
}

/// Dynamic shared memory: the patch, then one model accumulator per candidate. Candidate j is
/// owned by thread j % minor_threads (item j / minor_threads): only its owner touches its value,
/// position and model accumulator, so those need no barriers.
__global__ void __launch_bounds__(minor_threads, 1) minor_cycle_kernel(minor_cycle_args a) {
  extern __shared__ float shared[];
  __shared__ std::uint64_t warp_keys[minor_threads / 32];
  __shared__ std::uint64_t block_key;
  const int side = 2 * a.patch_half + 1;
  float* patch = shared;
  float* model = shared + side * side;
  for (int i = threadIdx.x; i < side * side; i += minor_threads) patch[i] = a.patch[i];

  float value[minor_items];
  std::uint32_t xy[minor_items];  // x | y << 16
#pragma unroll
  for (int t = 0; t < minor_items; ++t) {
    const int j = t * minor_threads + threadIdx.x;
    value[t] = 0;
    xy[t] = 0;
    if (j < a.count) {
      const std::uint64_t key = a.candidate_keys[j];
      const std::uint32_t q = peak_index(key);
      value[t] = peak_value(key);
      xy[t] = (q % static_cast<std::uint32_t>(a.width)) | (q / static_cast<std::uint32_t>(a.width)) << 16;
      model[j] = a.model[q];
    }
  }
  __syncthreads();  // the patch is in place

  bool have_component = false;
  float flux = 0;
  int peak_x = 0, peak_y = 0;
  int taken = 0;
  minor_stop stop = minor_stop::no_candidates;
  for (;; ++taken) {
    std::uint64_t mine = no_peak;
#pragma unroll
    for (int t = 0; t < minor_items; ++t) {
      const int j = t * minor_threads + threadIdx.x;
      if (j >= a.count) continue;
      const int x = static_cast<int>(xy[t] & 0xffffu), y = static_cast<int>(xy[t] >> 16);
      if (have_component) {
        const int dx = x - peak_x, dy = y - peak_y;
        if (abs(dx) <= a.patch_half && abs(dy) <= a.patch_half) {
          value[t] = fmaf(-flux, patch[(dy + a.patch_half) * side + dx + a.patch_half], value[t]);
          if (dx == 0 && dy == 0) model[j] += flux;
        }
      }
      if (!isnan(value[t])) {
        const std::uint64_t key = pack_peak(value[t], static_cast<std::uint32_t>(y * a.width + x));
        mine = key > mine ? key : mine;
      }
    }
    const std::uint64_t best = block_max_key(mine, warp_keys, &block_key);
    // Every thread holds the same `best`, so every thread takes the same branch.
    if (best == no_peak) { stop = minor_stop::no_candidates; break; }
    const double magnitude = peak_magnitude(best);
    // (Divergence is judged on the exact residual between cycles, as on the CPU path.)
    if (taken > 0 && magnitude <= a.level) { stop = minor_stop::level; break; }
    if (a.taken_before + taken >= a.niter) { stop = minor_stop::niter; break; }
    if (taken >= a.capacity) { stop = minor_stop::capacity; break; }
    const std::uint32_t p = peak_index(best);
    flux = a.gain * peak_value(best);
    peak_x = static_cast<int>(p % static_cast<std::uint32_t>(a.width));
    peak_y = static_cast<int>(p / static_cast<std::uint32_t>(a.width));
    have_component = true;
    if (threadIdx.x == 0) a.components[taken] = {p, flux};
  }

#pragma unroll
  for (int t = 0; t < minor_items; ++t) {
    const int j = t * minor_threads + threadIdx.x;
    if (j < a.count) a.model[(xy[t] >> 16) * static_cast<std::uint32_t>(a.width) + (xy[t] & 0xffffu)] = model[j];
  }
  if (threadIdx.x == 0) *a.outcome = {taken, static_cast<std::int32_t>(stop)};
}

}  // namespace

int minor_patch_half() {
  const long available = static_cast<long>(max_shared_bytes_per_block()) - model_bytes - 1024;  // static smem
  int half = minor_max_patch_half;
  while (half > 0 && static_cast<long>(shared_bytes(half) - model_bytes) > available) --half;
  return half;
}

std::vector<float> psf_patch(const image& psf, int half) {
  const int side = 2 * half + 1;
  const std::int64_t centre_x = psf_centre(psf.width), centre_y = psf_centre(psf.height);
  std::vector<float> patch(static_cast<std::size_t>(side) * side, 0.0f);
  for (int dy = -half; dy <= half; ++dy)
    for (int dx = -half; dx <= half; ++dx) {
      const std::int64_t x = centre_x + dx, y = centre_y + dy;
      if (x >= 0 && x < psf.width && y >= 0 && y < psf.height)
        patch[static_cast<std::size_t>((dy + half) * side + dx + half)] = psf.at(x, y);
    }
  return patch;
}

void launch_minor_cycle(const minor_cycle_args& args, cudaStream_t stream) {
  BKT_EXPECTS(args.count >= 1 && args.count <= minor_capacity, "minor cycle: candidate count out of range");
  BKT_EXPECTS(args.capacity >= 1, "minor cycle: no room for components");
  const std::size_t bytes = shared_bytes(args.patch_half);
  BKT_CUDA_CHECK(cudaFuncSetAttribute(minor_cycle_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      static_cast<int>(bytes)));
  minor_cycle_kernel<<<1, minor_threads, bytes, stream>>>(args);
  BKT_CHECK_LAUNCH(stream);
}

}  // namespace bkt::clean::gpu
