// Clark's minor cycle: Högbom over a list of candidate pixels with a PSF patch, in one persistent
// thread block. Each iteration is one pass over the candidates held in registers (subtract the
// previous component where the patch reaches, find the next peak) and one block reduction.
//
// Limits (documented where the host picks the candidates): at most minor_capacity candidates
// (minor_threads x minor_items: 12288); the patch is the PSF within +-patch_half pixels of its
// centre, as large as shared memory allows (up to minor_max_patch_half). Images up to 65535
// pixels along each axis (x and y share a word).
//
// The patch leaves out the PSF beyond it, so the candidates' values drift from the true residual
// by the sum of (flux taken) x (sidelobe outside the patch). A launch therefore tracks the error
// measure E = sum over candidates of (flux it added there)^2 and ends once
// exterior_sidelobe^2 x E reaches (error_fraction x peak)^2 (clark_gpu.cu picks the fractions);
// the host then corrects the candidates exactly for that batch (clark_exterior.hpp) and resumes.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "image.hpp"
#include "hogbom_state.hpp"

namespace bkt::clean::gpu {

inline constexpr int minor_threads = 512;
inline constexpr int minor_items = 24;  // candidates per thread, in registers (128 registers, no spills)
inline constexpr int minor_capacity = minor_threads * minor_items;
inline constexpr int minor_max_patch_half = 96;
inline constexpr std::int64_t minor_max_extent = 65535;

/// Why a minor-cycle launch ended. batch_error: the patch's error budget for one batch is spent
/// (correct the candidates and launch again); cycle_drift: the budget of the whole major cycle is
/// spent (pixels outside the list may have moved as much: run a major cycle).
enum class minor_stop : std::int32_t { level, niter, capacity, no_candidates, batch_error, cycle_drift };

struct minor_outcome {
  std::int32_t count = 0;  // components taken (written to components[0, count))
  std::int32_t stop = 0;   // a minor_stop
  double error_sum = 0;    // E of this launch: sum over candidates of (flux added there)^2
};

struct minor_cycle_args {
  const std::uint64_t* candidate_keys = nullptr;  // peak keys of the candidates, any order
  const float* values_in = nullptr;  // the candidates' residual, in key order; null: from the keys
  float* values_out = nullptr;       // the candidates' residual when the launch ends (may be values_in)
  std::int32_t count = 0;                         // 1 .. minor_capacity
  float* model = nullptr;          // the model image; read and updated at the candidates only
  const float* patch = nullptr;    // patch_side^2 floats (psf_patch)
  std::int32_t patch_half = 0;
  std::int32_t width = 0;
  float gain = 0;                  // float(params.gain)
  double level = 0;                // stop once the peak is at or below this
  bool take_first = true;          // take the first peak even at or below `level` (a cycle's first launch)
  double batch_error_scale = 0;    // stop (batch_error) once scale x E >= peak^2; 0: never
  double cycle_error_scale = 0;    // stop (cycle_drift) once scale x (cycle_error_before + E) >= peak^2
  double cycle_error_before = 0;   // E of the cycle's earlier launches
  std::int64_t taken_before = 0;   // components of earlier cycles and launches
  std::int64_t niter = 0;
  std::int32_t capacity = 0;       // records `components` holds
  component_record* components = nullptr;
  minor_outcome* outcome = nullptr;
};

/// The largest patch half-width this device's shared memory allows (at most minor_max_patch_half).
int minor_patch_half();

/// patch[(dy + half) * (2 half + 1) + dx + half] = psf(centre + (dx, dy)), 0 outside the PSF.
std::vector<float> psf_patch(const image& psf, int half);

/// Runs one minor cycle on `stream` (asynchronous; the outcome lands in args.outcome).
void launch_minor_cycle(const minor_cycle_args& args, cudaStream_t stream);

}  // namespace bkt::clean::gpu
