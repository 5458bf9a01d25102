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

/// One model accumulator and one batch flux per candidate, then the patch.
std::size_t shared_bytes(int half) {
  return static_cast<std::size_t>(patch_cells(half)) * sizeof(float) + 2 * model_bytes;
}

/// Dynamic shared memory: the model accumulators, the flux each candidate took in this launch,
/// the patch. Candidate j is owned by thread j % minor_threads (item j / minor_threads): only its
/// owner touches its value, position, model and flux, so those need no barriers.
__global__ void __launch_bounds__(minor_threads, 1) minor_cycle_kernel(minor_cycle_args a) {
  extern __shared__ float shared[];
  __shared__ std::uint64_t warp_keys[minor_threads / 32];
  __shared__ std::uint64_t block_key;
  // E after component k, in slot k % 2: the owner of component k's pixel writes it (from slot
  // (k - 1) % 2) in the pass before a reduction, and every thread reads it after that reduction.
  // Slot k % 2 is written again only for component k + 2, after a reduction that waits for every
  // thread's read. (In shared memory rather than a register: the kernel is at 128 registers.)
  __shared__ double error_after[2];
  const int side = 2 * a.patch_half + 1;
  float* model = shared;  // at fixed offsets, so that no register holds their addresses
  float* batch_flux = shared + minor_capacity;
  float* patch = shared + 2 * minor_capacity;
  for (int i = threadIdx.x; i < side * side; i += minor_threads) patch[i] = a.patch[i];

  float value[minor_items];
  std::uint32_t xy[minor_items];     // x | y << 16
  std::uint32_t index[minor_items];  // y * width + x
#pragma unroll
  for (int t = 0; t < minor_items; ++t) {
    const int j = t * minor_threads + threadIdx.x;
    value[t] = 0;
    xy[t] = 0;
    index[t] = 0;
    if (j < a.count) {
      const std::uint64_t key = a.candidate_keys[j];
      const std::uint32_t q = peak_index(key);
      value[t] = a.values_in != nullptr ? a.values_in[j] : peak_value(key);
      xy[t] = (q % static_cast<std::uint32_t>(a.width)) | (q / static_cast<std::uint32_t>(a.width)) << 16;
      model[j] = a.model[q];
      batch_flux[j] = 0;
      index[t] = q;
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
      // An empty asm that "changes" xy: x and y are then unpacked in the loop instead of being
      // kept in two more registers per candidate, which spilled at 128 registers.
      asm("" : "+r"(xy[t]));
      const int x = static_cast<int>(xy[t] & 0xffffu), y = static_cast<int>(xy[t] >> 16);
      if (have_component) {
        const int dx = x - peak_x, dy = y - peak_y;
        if (abs(dx) <= a.patch_half && abs(dy) <= a.patch_half) {
          value[t] = fmaf(-flux, patch[(dy + a.patch_half) * side + dx + a.patch_half], value[t]);
          if (dx == 0 && dy == 0) {
            model[j] += flux;
            const float before = batch_flux[j];
            batch_flux[j] = before + flux;
            const double sum_before = taken >= 2 ? error_after[taken & 1] : 0.0;
            error_after[(taken - 1) & 1] = sum_before + static_cast<double>(flux * (2.0f * before + flux));
          }
        }
      }
      if (!isnan(value[t])) {
        const std::uint64_t key = pack_peak(value[t], index[t]);
        mine = key > mine ? key : mine;
      }
    }
    const std::uint64_t best = block_max_key(mine, warp_keys, &block_key);
    const double error_sum = have_component ? error_after[(taken - 1) & 1] : 0.0;  // E
    // Every thread holds the same `best` and `error_sum`, so every thread takes the same branch.
    if (best == no_peak) { stop = minor_stop::no_candidates; break; }
    const double magnitude = peak_magnitude(best);
    // (Divergence is judged on the exact residual between cycles, as on the CPU path.)
    const bool may_stop = taken > 0 || !a.take_first;
    if (may_stop && magnitude <= a.level) { stop = minor_stop::level; break; }
    const double square = magnitude * magnitude;
    if (may_stop && a.cycle_error_scale * (a.cycle_error_before + error_sum) >= square) {
      stop = minor_stop::cycle_drift;
      break;
    }
    if (taken > 0 && a.batch_error_scale * error_sum >= square) { stop = minor_stop::batch_error; break; }
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
    if (j < a.count) {
      a.model[(xy[t] >> 16) * static_cast<std::uint32_t>(a.width) + (xy[t] & 0xffffu)] = model[j];
      a.values_out[j] = value[t];
    }
  }
  if (threadIdx.x == 0)
    *a.outcome = {taken, static_cast<std::int32_t>(stop), taken > 0 ? error_after[(taken - 1) & 1] : 0.0};
}

}  // namespace

int minor_patch_half() {
  const long available = static_cast<long>(max_shared_bytes_per_block()) - 1024;  // static smem
  int half = minor_max_patch_half;
  while (half > 0 && static_cast<long>(shared_bytes(half)) > available) --half;
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
  BKT_EXPECTS(args.values_out != nullptr, "minor cycle: no room for the candidates' values");
  const std::size_t bytes = shared_bytes(args.patch_half);
  BKT_CUDA_CHECK(cudaFuncSetAttribute(minor_cycle_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      static_cast<int>(bytes)));
  minor_cycle_kernel<<<1, minor_threads, bytes, stream>>>(args);
  BKT_CHECK_LAUNCH(stream);
}

}  // namespace bkt::clean::gpu
