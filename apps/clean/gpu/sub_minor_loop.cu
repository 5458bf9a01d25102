#include "sub_minor_loop.hpp"

#include <algorithm>

#include "block_max_key.cuh"
#include "bkt/device/occupancy.cuh"
#include "bkt/error.hpp"
#include "bkt/memory.hpp"
#include "joint/spectral_fit.hpp"
#include "peak_key.hpp"

namespace bkt::clean::gpu {
namespace {

constexpr int threads = 256;
/// Launches per graph: a loop that stops early leaves the rest as launches that return at once.
constexpr int steps_per_graph = 32;

/// Subtracts the pending component from candidate i's channels (when there is one) and returns
/// the candidate's key.
__device__ inline std::uint64_t update_candidate(const sub_minor_params& p, bool subtract, std::int32_t peak_x,
                                                 std::int32_t peak_y, std::int64_t i) {
  const std::int32_t px = p.x[i] - peak_x + p.psf_centre_x, py = p.y[i] - peak_y + p.psf_centre_y;
  const bool inside = subtract && px >= 0 && px < p.psf_width && py >= 0 && py < p.psf_height;
  const std::int64_t offset = std::int64_t{py} * p.psf_width + px;
  float sum = 0;
  for (int c = 0; c < p.channels; ++c) {
    float value = p.values[c * p.capacity + i];
    if (inside) {
      value = fmaf(-p.flux[c], p.psf[c * p.psf_plane + offset], value);
      p.values[c * p.capacity + i] = value;
    }
    sum = fmaf(p.shares[c], value, sum);
  }
  return pack_peak(sum, static_cast<std::uint32_t>(i));
}

/// The last block's part: the loop's stop rules on the chosen key, then the next component.
__device__ void choose_next(const sub_minor_params& p, sub_minor_state& state, std::uint64_t key) {
  state.arrived = 0;
  state.peak = key;
  state.has_flux = 0;
  const double magnitude = peak_magnitude(key);
  if (key == no_peak || magnitude <= p.stop_threshold || state.taken >= p.max_components) {
    state.stop = 1;
    return;
  }
  if (p.divergence_level > 0 && magnitude > p.divergence_level) {
    state.stop = 1;
    state.diverged = 1;
    return;
  }
  const std::int64_t i = peak_index(key);
  // Other blocks wrote these values in this launch: read past L1.
  for (int c = 0; c < p.channels; ++c) p.flux[c] = p.gain * __ldcg(p.values + c * p.capacity + i);
  const spectral_fit_setup fit{p.spectral_terms, p.channels, p.abscissae, p.weights};
  fit_and_evaluate(fit, p.flux);
  float integrated = 0;
  for (int c = 0; c < p.channels; ++c) {
    const float flux = p.flux[c];
    p.models[c * p.capacity + i] = __ldcg(p.models + c * p.capacity + i) + flux;
    p.record_flux[state.taken * p.channels + c] = flux;
    integrated = fmaf(p.shares[c], flux, integrated);
  }
  p.record_x[state.taken] = p.x[i];
  p.record_y[state.taken] = p.y[i];
  state.flux_sum += integrated;
  ++state.taken;
  state.has_flux = 1;
}

__global__ void __launch_bounds__(threads) sub_minor_step_kernel(const sub_minor_params* params,
                                                                 sub_minor_state* state_in,
                                                                 unsigned long long* block_keys) {
  __shared__ std::uint64_t warp_keys[threads / 32];
  __shared__ std::uint64_t block_key;
  __shared__ bool last;
  const sub_minor_params p = *params;
  sub_minor_state& state = *state_in;
  if (state.stop) return;
  const bool subtract = state.has_flux != 0;
  std::int32_t peak_x = 0, peak_y = 0;
  if (subtract) {
    const std::int64_t chosen = peak_index(state.peak);
    peak_x = p.x[chosen];
    peak_y = p.y[chosen];
  }
  std::uint64_t best = no_peak;
  for (std::int64_t i = blockIdx.x * std::int64_t{threads} + threadIdx.x; i < p.count;
       i += std::int64_t{gridDim.x} * threads) {
    const std::uint64_t key = update_candidate(p, subtract, peak_x, peak_y, i);
    best = key > best ? key : best;
  }
  best = block_max_key(best, warp_keys, &block_key);
  if (threadIdx.x == 0) {
    block_keys[blockIdx.x] = best;
    __threadfence();
    last = atomicAdd(&state.arrived, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  std::uint64_t mine = no_peak;
  for (unsigned b = threadIdx.x; b < gridDim.x; b += threads) {
    const std::uint64_t key = __ldcg(block_keys + b);
    mine = key > mine ? key : mine;
  }
  mine = block_max_key(mine, warp_keys, &block_key);
  if (threadIdx.x == 0) choose_next(p, state, mine);
}

}  // namespace

sub_minor_loop::sub_minor_loop(cudaStream_t stream)
    : blocks_(multiprocessor_count() * 2), params_(1, stream), state_(1, stream), block_keys_(blocks_, stream) {
  graph_ = executable_graph([&](cudaGraph_t graph) {
    cudaKernelNodeParams node{};
    const sub_minor_params* params = params_.data();
    sub_minor_state* state = state_.data();
    unsigned long long* keys = block_keys_.data();
    void* arguments[] = {&params, &state, &keys};
    node.func = reinterpret_cast<void*>(sub_minor_step_kernel);
    node.gridDim = dim3(static_cast<unsigned>(blocks_));
    node.blockDim = dim3(threads);
    node.kernelParams = arguments;
    cudaGraphNode_t previous = nullptr;
    for (int step = 0; step < steps_per_graph; ++step) {
      cudaGraphNode_t added = nullptr;
      BKT_CUDA_CHECK(cudaGraphAddKernelNode(&added, graph, previous == nullptr ? nullptr : &previous,
                                            previous == nullptr ? 0 : 1, &node));
      previous = added;
    }
  });
}

sub_minor_state sub_minor_loop::run(const sub_minor_params& params, cudaStream_t stream) {
  const sub_minor_state fresh{};
  // Pageable sources: both copies are done with the host values when they return.
  BKT_CUDA_CHECK(cudaMemcpyAsync(params_.data(), &params, sizeof params, cudaMemcpyHostToDevice, stream));
  BKT_CUDA_CHECK(cudaMemcpyAsync(state_.data(), &fresh, sizeof fresh, cudaMemcpyHostToDevice, stream));
  for (;;) {
    graph_.launch(stream);
    const sub_minor_state state = read_sync(state_.data(), stream);
    if (state.stop != 0) return state;
  }
}

}  // namespace bkt::clean::gpu
