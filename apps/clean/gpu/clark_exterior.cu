#include "clark_exterior.hpp"

#include <algorithm>

#include "bkt/device/occupancy.cuh"
#include "bkt/device_buffer.hpp"
#include "bkt/error.hpp"
#include "bkt/memory.hpp"
#include "peak_key.hpp"

namespace bkt::clean::gpu {
namespace {

constexpr int sidelobe_threads = 256;
constexpr int correction_threads = 128;
constexpr int correction_tile = 1024;  // components staged in shared memory at a time

__device__ inline bool inside_patch(int dx, int dy, int half) { return abs(dx) <= half && abs(dy) <= half; }

/// *result = max(*result, |psf| over the reachable offsets outside the patch), as float bits
/// (non-negative floats order like their bits).
__global__ void __launch_bounds__(sidelobe_threads) exterior_sidelobe_kernel(const float* psf, plane_geometry g,
                                                                            int half, unsigned* result) {
  __shared__ float warp_max[sidelobe_threads / 32];
  const std::int64_t cells = static_cast<std::int64_t>(g.psf_width) * g.psf_height;
  float largest = 0;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * sidelobe_threads + threadIdx.x; i < cells;
       i += static_cast<std::int64_t>(gridDim.x) * sidelobe_threads) {
    const int dx = static_cast<int>(i % g.psf_width) - g.psf_centre_x;
    const int dy = static_cast<int>(i / g.psf_width) - g.psf_centre_y;
    if (abs(dx) >= g.width || abs(dy) >= g.height || inside_patch(dx, dy, half)) continue;
    largest = fmaxf(largest, fabsf(psf[i]));  // fmaxf skips NaN
  }
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2)
    largest = fmaxf(largest, __shfl_xor_sync(0xffffffffu, largest, offset));
  if (threadIdx.x % 32 == 0) warp_max[threadIdx.x / 32] = largest;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < sidelobe_threads / 32; ++w) largest = fmaxf(largest, warp_max[w]);
    atomicMax(result, __float_as_uint(largest));
  }
}

/// One thread per candidate; the components go through shared memory a tile at a time. The
/// offset test is folded into a weight of 0 so that the loads of a few components are in flight
/// at once (fmaf(-flux, 0, v) == v for the finite values here).
__global__ void __launch_bounds__(correction_threads) correct_beyond_patch_kernel(
    const std::uint64_t* keys, float* values, std::int32_t count, const component_record* components, std::int32_t num,
    const float* psf, plane_geometry g, int half) {
  __shared__ int component_x[correction_tile], component_y[correction_tile];
  __shared__ float component_flux[correction_tile];
  const int j = blockIdx.x * correction_threads + threadIdx.x;
  int x = 0, y = 0;
  float value = 0;
  if (j < count) {
    const std::uint32_t q = peak_index(keys[j]);
    x = static_cast<int>(q % static_cast<std::uint32_t>(g.width));
    y = static_cast<int>(q / static_cast<std::uint32_t>(g.width));
    value = values[j];
  }
  for (int base = 0; base < num; base += correction_tile) {
    const int tile = min(correction_tile, num - base);
    __syncthreads();  // the previous tile has been read
    for (int i = threadIdx.x; i < tile; i += correction_threads) {
      const component_record record = components[base + i];
      component_x[i] = static_cast<int>(record.index % static_cast<std::uint32_t>(g.width));
      component_y[i] = static_cast<int>(record.index / static_cast<std::uint32_t>(g.width));
      component_flux[i] = record.flux;
    }
    __syncthreads();
    if (j >= count) continue;
#pragma unroll 8
    for (int i = 0; i < tile; ++i) {
      const int dx = x - component_x[i], dy = y - component_y[i];
      const int psf_x = dx + g.psf_centre_x, psf_y = dy + g.psf_centre_y;
      const bool used = !inside_patch(dx, dy, half) && psf_x >= 0 && psf_x < g.psf_width && psf_y >= 0 &&
                        psf_y < g.psf_height;
      const float weight = used ? psf[static_cast<std::int64_t>(psf_y) * g.psf_width + psf_x] : 0.0f;
      value = fmaf(-component_flux[i], weight, value);
    }
  }
  if (j < count) values[j] = value;
}

}  // namespace

float exterior_sidelobe_sync(const float* psf, const plane_geometry& g, int patch_half, cudaStream_t stream) {
  BKT_EXPECTS(patch_half >= 0, "exterior_sidelobe: negative patch half-width");
  device_buffer<unsigned> result(1, stream);
  BKT_CUDA_CHECK(cudaMemsetAsync(result.data(), 0, sizeof(unsigned), stream));
  const std::int64_t cells = static_cast<std::int64_t>(g.psf_width) * g.psf_height;
  if (cells > 0) {
    const std::int64_t wanted = (cells + sidelobe_threads - 1) / sidelobe_threads;
    const int blocks = static_cast<int>(std::min<std::int64_t>(wanted, multiprocessor_count() * 8));
    exterior_sidelobe_kernel<<<blocks, sidelobe_threads, 0, stream>>>(psf, g, patch_half, result.data());
    BKT_CHECK_LAUNCH(stream);
  }
  return bits_float(read_sync(result.data(), stream));
}

void correct_beyond_patch(const std::uint64_t* keys, float* values, std::int32_t count,
                          const component_record* components, std::int32_t num, const float* psf,
                          const plane_geometry& g, int patch_half, cudaStream_t stream) {
  BKT_EXPECTS(count >= 0 && num >= 0 && patch_half >= 0, "correct_beyond_patch: negative size");
  if (count == 0 || num == 0) return;
  const int blocks = (count + correction_threads - 1) / correction_threads;
  correct_beyond_patch_kernel<<<blocks, correction_threads, 0, stream>>>(keys, values, count, components, num, psf, g,
                                                                        patch_half);
  BKT_CHECK_LAUNCH(stream);
}

}  // namespace bkt::clean::gpu
