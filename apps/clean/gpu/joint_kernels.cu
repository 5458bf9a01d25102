#include "joint_kernels.hpp"

#include <algorithm>

#include "block_max_key.cuh"
#include "bkt/device/occupancy.cuh"
#include "bkt/error.hpp"
#include "joint/loop_taper.hpp"
#include "peak_key.hpp"

namespace bkt::clean::gpu {
namespace {

constexpr int threads = 256;

int grid_for(std::int64_t items) {
  return static_cast<int>(std::clamp<std::int64_t>((items + threads - 1) / threads, 1, multiprocessor_count() * 16));
}

#define BKT_GRID_STRIDE(i, count)                                                                    \
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < (count); \
       i += std::int64_t{gridDim.x} * blockDim.x)

__device__ inline float integrated_at(const float* planes, std::int64_t stride, const float* shares, int channels,
                                      std::int64_t q) {
  float sum = 0;
  for (int c = 0; c < channels; ++c) sum = fmaf(shares[c], planes[c * stride + q], sum);
  return sum;
}

__device__ inline bool in_region(const scale_region& region, std::int64_t q) {
  const std::int32_t x = static_cast<std::int32_t>(q % region.width), y = static_cast<std::int32_t>(q / region.width);
  if (x < region.border || y < region.border || x >= region.width - region.border || y >= region.height - region.border)
    return false;
  return region.allowed[q] == 1 && (region.mask == nullptr || region.mask[q] == 1);
}

__global__ void integrate_kernel(const float* planes, std::int64_t stride, const float* shares, int channels,
                                 std::int64_t pixels, float* out) {
  BKT_GRID_STRIDE(q, pixels) out[q] = integrated_at(planes, stride, shares, channels, q);
}

__global__ void __launch_bounds__(threads) region_peak_kernel(const float* values, scale_region region,
                                                              std::uint64_t* peak) {
  __shared__ std::uint64_t warp_keys[threads / 32];
  __shared__ std::uint64_t block_key;
  std::uint64_t best = no_peak;
  const std::int64_t pixels = std::int64_t{region.width} * region.height;
  BKT_GRID_STRIDE(q, pixels) {
    if (!in_region(region, q)) continue;
    const std::uint64_t key = pack_peak(values[q], static_cast<std::uint32_t>(q));
    best = key > best ? key : best;
  }
  best = block_max_key(best, warp_keys, &block_key);
  if (threadIdx.x == 0 && best != no_peak)
    atomicMax(reinterpret_cast<unsigned long long*>(peak), static_cast<unsigned long long>(best));
}

__global__ void pack_keys_kernel(const float* planes, std::int64_t stride, const float* shares, int channels,
                                 scale_region region, float level, std::uint64_t* keys) {
  const std::int64_t pixels = std::int64_t{region.width} * region.height;
  BKT_GRID_STRIDE(q, pixels) {
    std::uint64_t key = no_peak;
    if (in_region(region, q)) {
      const float value = integrated_at(planes, stride, shares, channels, q);
      if (fabsf(value) >= level) key = pack_peak(value, static_cast<std::uint32_t>(q));
    }
    keys[q] = key;
  }
}

__global__ void gather_kernel(const std::uint64_t* keys, std::int64_t count, std::int32_t width, const float* planes,
                              std::int64_t stride, int channels, std::int64_t capacity, std::int32_t* x,
                              std::int32_t* y, float* values, float* models) {
  BKT_GRID_STRIDE(i, count) {
    const std::uint32_t q = peak_index(keys[i]);
    x[i] = static_cast<std::int32_t>(q % static_cast<std::uint32_t>(width));
    y[i] = static_cast<std::int32_t>(q / static_cast<std::uint32_t>(width));
    for (int c = 0; c < channels; ++c) {
      values[c * capacity + i] = planes[c * stride + q];
      models[c * capacity + i] = 0;
    }
  }
}

__global__ void scatter_kernel(const std::int32_t* x, const std::int32_t* y, const float* models, std::int64_t count,
                               int channels, std::int64_t capacity, std::int32_t width, float* planes,
                               std::int64_t stride) {
  BKT_GRID_STRIDE(i, count) {
    const std::int64_t q = std::int64_t{y[i]} * width + x[i];
    for (int c = 0; c < channels; ++c) planes[c * stride + q] += models[c * capacity + i];
  }
}

__global__ void mark_kernel(const std::int32_t* x, const std::int32_t* y, const float* models, std::int64_t count,
                            int channels, std::int64_t capacity, std::int32_t width, std::uint8_t* mask) {
  BKT_GRID_STRIDE(i, count) {
    bool took = false;
    for (int c = 0; c < channels; ++c) took = took || models[c * capacity + i] != 0;
    if (took) mask[std::int64_t{y[i]} * width + x[i]] = 1;
  }
}

__global__ void crop_kernel(const float* psf, std::int32_t psf_width, std::int32_t psf_height, std::int32_t dx,
                            std::int32_t dy, std::int32_t width, std::int32_t height, float* out) {
  BKT_GRID_STRIDE(q, std::int64_t{width} * height) {
    const std::int32_t x = static_cast<std::int32_t>(q % width) + dx, y = static_cast<std::int32_t>(q / width) + dy;
    out[q] = x >= 0 && x < psf_width && y >= 0 && y < psf_height ? psf[std::int64_t{y} * psf_width + x] : 0.0f;
  }
}

__global__ void taper_kernel(float* plane, std::int32_t width, std::int32_t height) {
  BKT_GRID_STRIDE(q, std::int64_t{width} * height) plane[q] *= loop_taper(q % width, q / width, width, height);
}

__global__ void add_kernel(float* target, const float* add, std::int64_t count) {
  BKT_GRID_STRIDE(i, count) target[i] += add[i];
}

__global__ void deviation_kernel(const float* in, const float* centre, std::int64_t count, float* out) {
  const float middle = *centre;
  BKT_GRID_STRIDE(i, count) out[i] = fabsf(in[i] - middle);
}

#undef BKT_GRID_STRIDE

}  // namespace

void integrate_channels(const float* planes, std::int64_t stride, const float* shares, int channels,
                        std::int64_t pixels, float* out, cudaStream_t stream) {
  integrate_kernel<<<grid_for(pixels), threads, 0, stream>>>(planes, stride, shares, channels, pixels, out);
  BKT_CHECK_LAUNCH(stream);
}

void find_region_peak(const float* values, const scale_region& region, std::uint64_t* peak, cudaStream_t stream) {
  BKT_CUDA_CHECK(cudaMemsetAsync(peak, 0, sizeof(std::uint64_t), stream));
  const std::int64_t pixels = std::int64_t{region.width} * region.height;
  if (pixels == 0) return;
  region_peak_kernel<<<std::min(grid_for(pixels), multiprocessor_count() * 8), threads, 0, stream>>>(values, region,
                                                                                                      peak);
  BKT_CHECK_LAUNCH(stream);
}

void pack_joint_keys(const float* planes, std::int64_t stride, const float* shares, int channels,
                     const scale_region& region, float level, std::uint64_t* keys, cudaStream_t stream) {
  const std::int64_t pixels = std::int64_t{region.width} * region.height;
  pack_keys_kernel<<<grid_for(pixels), threads, 0, stream>>>(planes, stride, shares, channels, region, level, keys);
  BKT_CHECK_LAUNCH(stream);
}

void gather_candidates(const std::uint64_t* keys, std::int64_t count, std::int32_t width, const float* planes,
                       std::int64_t stride, int channels, std::int64_t capacity, std::int32_t* x, std::int32_t* y,
                       float* values, float* models, cudaStream_t stream) {
  if (count == 0) return;
  gather_kernel<<<grid_for(count), threads, 0, stream>>>(keys, count, width, planes, stride, channels, capacity, x, y,
                                                          values, models);
  BKT_CHECK_LAUNCH(stream);
}

void scatter_candidates(const std::int32_t* x, const std::int32_t* y, const float* models, std::int64_t count,
                        int channels, std::int64_t capacity, std::int32_t width, float* planes, std::int64_t stride,
                        cudaStream_t stream) {
  if (count == 0) return;
  scatter_kernel<<<grid_for(count), threads, 0, stream>>>(x, y, models, count, channels, capacity, width, planes,
                                                           stride);
  BKT_CHECK_LAUNCH(stream);
}

void mark_candidates(const std::int32_t* x, const std::int32_t* y, const float* models, std::int64_t count,
                     int channels, std::int64_t capacity, std::int32_t width, std::uint8_t* mask, cudaStream_t stream) {
  if (count == 0) return;
  mark_kernel<<<grid_for(count), threads, 0, stream>>>(x, y, models, count, channels, capacity, width, mask);
  BKT_CHECK_LAUNCH(stream);
}

void crop_psf(const float* psf, std::int32_t psf_width, std::int32_t psf_height, std::int32_t centre_x,
              std::int32_t centre_y, std::int32_t width, std::int32_t height, float* out, cudaStream_t stream) {
  crop_kernel<<<grid_for(std::int64_t{width} * height), threads, 0, stream>>>(
      psf, psf_width, psf_height, centre_x - width / 2, centre_y - height / 2, width, height, out);
  BKT_CHECK_LAUNCH(stream);
}

void taper_loop_psf(float* plane, std::int32_t width, std::int32_t height, cudaStream_t stream) {
  taper_kernel<<<grid_for(std::int64_t{width} * height), threads, 0, stream>>>(plane, width, height);
  BKT_CHECK_LAUNCH(stream);
}

void add_planes(float* target, const float* add, std::int64_t count, cudaStream_t stream) {
  add_kernel<<<grid_for(count), threads, 0, stream>>>(target, add, count);
  BKT_CHECK_LAUNCH(stream);
}

void absolute_deviations(const float* in, const float* centre, std::int64_t count, float* out, cudaStream_t stream) {
  if (count == 0) return;
  deviation_kernel<<<grid_for(count), threads, 0, stream>>>(in, centre, count, out);
  BKT_CHECK_LAUNCH(stream);
}

}  // namespace bkt::clean::gpu
