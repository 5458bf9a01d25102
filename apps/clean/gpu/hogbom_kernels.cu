#include "hogbom_kernels.hpp"

#include <algorithm>

#include "bkt/device/occupancy.cuh"
#include "bkt/error.hpp"
#include "residual_sweep.cuh"

namespace bkt::clean::gpu {
namespace {

template <class T>
__device__ T read_volatile(const T& value) {
  return *static_cast<const volatile T*>(&value);
}

/// Step k = batch_base + offset: decide on peak k-1 (take it or stop), subtract it and search peak k.
template <bool HasMask>
__global__ void __launch_bounds__(sweep_threads) hogbom_step_kernel(hogbom_step_args args, int offset) {
  __shared__ std::uint64_t warp_keys[sweep_threads / 32];
  __shared__ std::uint64_t block_key;
  hogbom_state* state = args.state;
  // All state loads are issued together (one round trip to L2, not three dependent ones); of the
  // slots only (k-1) % 4 is used, which no block of this launch writes.
  const std::int32_t stopped = read_volatile(state->stopped);
  const std::int64_t base = read_volatile(state->batch_base);
  std::uint64_t slots[peak_ring_slots];
#pragma unroll
  for (int i = 0; i < peak_ring_slots; ++i) slots[i] = read_volatile(state->peak_slots[i]);
  const float first_peak = read_volatile(state->first_peak);  // written by step 1, used from step 2 on
  // `stopped` is set by an earlier step, or by block 0 of this one; either way every block of this
  // launch reaches the same decision below, so a block that sees it late stops there instead.
  if (stopped != 0) return;
  const std::int64_t k = base + offset;
  const bool lead = blockIdx.x == 0 && threadIdx.x == 0;
  const plane_geometry& g = args.plane.geometry;

  sweep_component component;  // step 0 only searches
  if (k > 0) {
    const std::int64_t taken = k - 1;
    std::uint64_t key = no_peak;
#pragma unroll
    for (int i = 0; i < peak_ring_slots; ++i)  // constant indices keep `slots` in registers
      if (i == taken % peak_ring_slots) key = slots[i];
    const step_decision decision = decide_step(key, taken, first_peak, args.rules);
    if (decision != step_decision::take) {
      if (lead) {
        state->final_key = key;
        state->taken = taken;
        state->reason = static_cast<std::int32_t>(decision);
        state->stopped = 1;
      }
      return;
    }
    // The key holds R[p] bit for bit (peak_key.hpp): no block reads R[p], which others may be
    // rewriting already.
    const float value = peak_value(key);
    const std::uint32_t p = peak_index(key);
    component.apply = true;
    component.flux = args.rules.gain * value;
    component.offset_x = g.psf_centre_x - static_cast<std::int32_t>(p % static_cast<std::uint32_t>(g.width));
    component.offset_y = g.psf_centre_y - static_cast<std::int32_t>(p / static_cast<std::uint32_t>(g.width));
    if (lead) {
      args.components[taken % args.component_capacity] = {p, component.flux};
      if (taken == 0) state->first_peak = fabsf(value);
    }
  }
  if (lead) state->peak_slots[(k + 1) % peak_ring_slots] = no_peak;

  const std::uint64_t mine = sweep_tiles<HasMask>(args.plane, component, (k & 1) != 0);
  const std::uint64_t block_best = block_max_key(mine, warp_keys, &block_key);
  if (threadIdx.x == 0 && block_best != no_peak)
    atomicMax(reinterpret_cast<unsigned long long*>(&state->peak_slots[k % peak_ring_slots]),
              static_cast<unsigned long long>(block_best));
}

__global__ void advance_batch_kernel(hogbom_state* state, int steps) { state->batch_base += steps; }

void* step_kernel_for(const device_plane& plane) {
  return plane.candidate_bits != nullptr ? reinterpret_cast<void*>(&hogbom_step_kernel<true>)
                                         : reinterpret_cast<void*>(&hogbom_step_kernel<false>);
}

}  // namespace

int hogbom_grid_blocks(const device_plane& plane) {
  const int num_vectors = plane.geometry.padded_pixels() / 4;
  const int num_tiles = (num_vectors + sweep_tile_vectors - 1) / sweep_tile_vectors;
  const int resident = static_cast<int>(resident_blocks(step_kernel_for(plane), sweep_threads, 0));
  // As many tiles for every block (the last one excepted), so that no block starts a last round
  // alone: e.g. 8192 tiles, 660 resident blocks -> 13 tiles each, 631 blocks.
  const int tiles_per_block = (num_tiles + resident - 1) / resident;
  return std::max(1, (num_tiles + tiles_per_block - 1) / tiles_per_block);
}

executable_graph make_hogbom_batch(const hogbom_step_args& args, int steps, int grid_blocks) {
  BKT_EXPECTS(steps >= 1, "make_hogbom_batch: steps < 1");
  return executable_graph([&](cudaGraph_t graph) {
    cudaGraphNode_t previous = nullptr;
    auto add = [&](void* kernel, unsigned blocks, unsigned threads, void** arguments) {
      cudaKernelNodeParams node{};
      node.func = kernel;
      node.gridDim = dim3(blocks);
      node.blockDim = dim3(threads);
      node.sharedMemBytes = 0;
      node.kernelParams = arguments;  // values are copied into the node here
      cudaGraphNode_t added = nullptr;
      BKT_CUDA_CHECK(cudaGraphAddKernelNode(&added, graph, previous != nullptr ? &previous : nullptr,
                                            previous != nullptr ? 1 : 0, &node));
      previous = added;
    };
    hogbom_step_args step_args = args;
    for (int offset = 0; offset < steps; ++offset) {
      void* arguments[] = {&step_args, &offset};
      add(step_kernel_for(args.plane), static_cast<unsigned>(grid_blocks), sweep_threads, arguments);
    }
    hogbom_state* state = args.state;
    int advance = steps;
    void* arguments[] = {&state, &advance};
    add(reinterpret_cast<void*>(&advance_batch_kernel), 1, 1, arguments);
  });
}

void launch_hogbom_batch(const hogbom_step_args& args, int steps, int grid_blocks, cudaStream_t stream) {
  for (int offset = 0; offset < steps; ++offset) {
    if (args.plane.candidate_bits != nullptr)
      hogbom_step_kernel<true><<<grid_blocks, sweep_threads, 0, stream>>>(args, offset);
    else
      hogbom_step_kernel<false><<<grid_blocks, sweep_threads, 0, stream>>>(args, offset);
    BKT_CHECK_LAUNCH(stream);
  }
  advance_batch_kernel<<<1, 1, 0, stream>>>(args.state, steps);
  BKT_CHECK_LAUNCH(stream);
}

}  // namespace bkt::clean::gpu
