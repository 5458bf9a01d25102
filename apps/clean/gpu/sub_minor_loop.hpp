// The joint engine's sub-minor loop on the GPU (joint/joint_clean.hpp step 2): one launch per
// component over every candidate. Each launch subtracts the component the last one chose from
// every candidate's channel values (flux_c x the loop's PSF at the offset), sums them into the
// integrated value and finds the largest |value| per block; the block that finishes last reduces
// the blocks' keys, applies the stop rules, reads the chosen candidate's values, fits them over
// frequency and records the next component for the next launch. The reductions use the packed
// peak key (peak_key.hpp, over candidate indices, which run in pixel order), so the choice is
// the CPU path's: largest |value|, ties to the smaller pixel index. Launches are replayed as a
// CUDA graph of `steps_per_graph`; the host looks at the stop flag between graphs.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "bkt/device_buffer.hpp"
#include "graph_handle.hpp"

namespace bkt::clean::gpu {

/// What one loop reads: device pointers and the loop's rules (in device memory, so that one graph
/// serves every loop).
struct sub_minor_params {
  std::int64_t count = 0;          // candidates
  std::int64_t capacity = 0;       // the candidate arrays' channel stride
  int channels = 0;
  const std::int32_t* x = nullptr;
  const std::int32_t* y = nullptr;
  float* values = nullptr;         // [channel * capacity + i]: the scale-convolved residual
  float* models = nullptr;         // [channel * capacity + i]: flux taken there
  const float* shares = nullptr;   // [channel]: the integrated image's weights
  const float* psf = nullptr;      // channel c's at psf + c * psf_plane
  std::int64_t psf_plane = 0;
  std::int32_t psf_width = 0, psf_height = 0, psf_centre_x = 0, psf_centre_y = 0;
  float gain = 0;
  double stop_threshold = 0;
  double divergence_level = 0;      // stop as diverged once the peak rises above this (0: never)
  std::int64_t max_components = 0;  // also the record arrays' capacity
  int spectral_terms = 0;
  const double* abscissae = nullptr;  // [channel]
  const double* weights = nullptr;    // [channel]
  float* flux = nullptr;              // [channel]: the component to subtract next
  std::int32_t* record_x = nullptr;   // [component]
  std::int32_t* record_y = nullptr;
  float* record_flux = nullptr;       // [component * channels + channel]
};

/// The loop's progress, in device memory.
struct sub_minor_state {
  unsigned long long peak = 0;  // the last reduction's key (candidate index inside)
  unsigned int arrived = 0;     // blocks done with the current launch
  int stop = 0;
  int has_flux = 0;             // `flux` holds a component still to subtract
  int diverged = 0;             // stopped by divergence_level
  std::int64_t taken = 0;
  double flux_sum = 0;          // integrated flux taken
};

class sub_minor_loop {
 public:
  explicit sub_minor_loop(cudaStream_t stream);

  /// Runs one loop to its end; returns the final state (waits for `stream`).
  sub_minor_state run(const sub_minor_params& params, cudaStream_t stream);

 private:
  int blocks_ = 0;
  device_buffer<sub_minor_params> params_;
  device_buffer<sub_minor_state> state_;
  device_buffer<unsigned long long> block_keys_;
  executable_graph graph_;
};

}  // namespace bkt::clean::gpu
