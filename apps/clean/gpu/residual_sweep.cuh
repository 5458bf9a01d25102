// One pass over the residual that subtracts the previous component (flux x shifted PSF) and finds
// the next peak over the candidates: Högbom's whole iteration, reading and writing the image once
// and reading the PSF window once.
//
// Layout: each thread handles float4 vectors (4 pixels), sweep_vectors_per_thread of them per
// tile, loaded first so that several loads are in flight; vector u of a tile is
// tile * tile_vectors + u * sweep_threads + threadIdx.x, so a warp's accesses are contiguous. The
// PSF shift is arbitrary, so PSF values are scalar read-only loads: a warp still reads one
// contiguous 512-byte run per vector slot, which L1 merges.
#pragma once

#include <cstdint>

#include "block_max_key.cuh"
#include "peak_key.hpp"
#include "plane_geometry.hpp"

namespace bkt::clean::gpu {

inline constexpr int sweep_threads = 256;
// Two vectors per thread per tile: 8192 tiles at 4096^2, small enough that the persistent grid
// (hogbom_grid_blocks) gives every block the same number of tiles with little left over.
inline constexpr int sweep_vectors_per_thread = 2;
inline constexpr int sweep_tile_vectors = sweep_threads * sweep_vectors_per_thread;

/// The component one sweep subtracts. apply == false: the sweep only searches and writes nothing.
struct sweep_component {
  bool apply = false;
  float flux = 0;
  /// PSF position minus pixel position: pixel (x, y) is multiplied by psf(x + offset_x, y + offset_y),
  /// i.e. offset = psf centre - the component's pixel.
  std::int32_t offset_x = 0;
  std::int32_t offset_y = 0;
};

/// Sweeps this block's tiles; returns this thread's largest candidate key (no_peak if none).
/// reverse: visit the tiles last to first, so that a sweep starting where the previous one ended
/// finds those lines still in L2 (odd steps run backwards; the max does not depend on the order).
template <bool HasMask>
__device__ std::uint64_t sweep_tiles(const device_plane& plane, const sweep_component& component, bool reverse) {
  const plane_geometry& g = plane.geometry;
  const int num_vectors = g.padded_pixels() / 4;
  const int num_tiles = (num_vectors + sweep_tile_vectors - 1) / sweep_tile_vectors;
  float4* residual4 = reinterpret_cast<float4*>(plane.residual);
  const float* __restrict__ psf = plane.psf;
  const float nan = __int_as_float(0x7fc00000);
  std::uint64_t best = no_peak;

  for (int t = blockIdx.x; t < num_tiles; t += gridDim.x) {
    const int tile = reverse ? num_tiles - 1 - t : t;
    int vector[sweep_vectors_per_thread];
    float4 loaded[sweep_vectors_per_thread];
    std::uint32_t candidate_nibble[sweep_vectors_per_thread];
#pragma unroll
    for (int u = 0; u < sweep_vectors_per_thread; ++u) {
      vector[u] = tile * sweep_tile_vectors + u * sweep_threads + static_cast<int>(threadIdx.x);
      const bool in_plane = vector[u] < num_vectors;
      loaded[u] = in_plane ? residual4[vector[u]] : make_float4(nan, nan, nan, nan);
      // Vector v covers pixels 4v .. 4v+3: bits (4v % 32) .. +3 of word 4v / 32 = v / 8.
      candidate_nibble[u] = 0xfu;
      if constexpr (HasMask)
        candidate_nibble[u] = in_plane ? (__ldg(plane.candidate_bits + vector[u] / 8) >> ((vector[u] % 8) * 4)) & 0xfu : 0u;
    }

    // PSF factors of the 4 pixels of each vector; pixels outside the shifted PSF get none.
    float weight[sweep_vectors_per_thread][4];
    bool inside[sweep_vectors_per_thread][4];
#pragma unroll
    for (int u = 0; u < sweep_vectors_per_thread; ++u) {
      const int first_pixel = vector[u] * 4;
      int y = first_pixel / g.width;
      int x = first_pixel - y * g.width;
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int psf_x = x + component.offset_x, psf_y = y + component.offset_y;
        inside[u][e] = component.apply && static_cast<unsigned>(psf_x) < static_cast<unsigned>(g.psf_width) &&
                       static_cast<unsigned>(psf_y) < static_cast<unsigned>(g.psf_height);
        weight[u][e] = inside[u][e] ? __ldg(psf + psf_y * g.psf_width + psf_x) : 0.0f;
        if (++x == g.width) x = 0, ++y;  // one pixel at a time: right for any width, even 1
      }
    }

#pragma unroll
    for (int u = 0; u < sweep_vectors_per_thread; ++u) {
      float value[4] = {loaded[u].x, loaded[u].y, loaded[u].z, loaded[u].w};
      bool changed = false;
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        // NaN pixels are never updated (their bits stay as they are).
        if (inside[u][e] && !isnan(value[e])) {
          value[e] = fmaf(-component.flux, weight[u][e], value[e]);
          changed = true;
        }
      }
      if (changed) residual4[vector[u]] = make_float4(value[0], value[1], value[2], value[3]);
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        if (((candidate_nibble[u] >> e) & 1u) != 0 && !isnan(value[e])) {
          const std::uint64_t key = pack_peak(value[e], static_cast<std::uint32_t>(vector[u] * 4 + e));
          best = key > best ? key : best;
        }
      }
    }
  }
  return best;
}

}  // namespace bkt::clean::gpu
