// One plane's device memory: the residual (starting as the dirty image), the PSF and the candidate
// bits, uploaded on a stream.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "image.hpp"
#include "bkt/device_buffer.hpp"
#include "plane_geometry.hpp"

namespace bkt::clean::gpu {

/// Candidate bits of a mask (bit q set where mask[q] == 1, as the CPU path reads it), padded to
/// the device plane.
std::vector<std::uint32_t> candidate_bits_of(const std::vector<std::uint8_t>& mask, const plane_geometry& g);

class device_plane_buffers {
 public:
  /// Uploads dirty (into the residual, padding NaN), the PSF and, when params.mask is not empty,
  /// its candidate bits. Asynchronous on `stream`; the host data must stay alive until the stream
  /// has run the copies (pageable memory: they finish before the call returns).
  device_plane_buffers(const image& dirty, const image& psf, const std::vector<std::uint8_t>& mask,
                       const plane_geometry& geometry, cudaStream_t stream);

  device_plane plane();
  float* residual() { return residual_.data(); }
  const float* psf() const { return psf_.data(); }
  const plane_geometry& geometry() const { return geometry_; }

 private:
  plane_geometry geometry_;
  device_buffer<float> residual_;
  device_buffer<float> psf_;
  device_buffer<std::uint32_t> candidate_bits_;
};

}  // namespace bkt::clean::gpu
