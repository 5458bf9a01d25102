// Clark's major cycle: residual = dirty - model (*) psf by zero-padded real FFTs (cuFFT R2C/C2R,
// float). The PSF's transform is computed once; the plans take a batch of planes, so that several
// planes (channels, polarisations) of one geometry share one call.
//
// Padding: model pixel p reaches residual pixel q through psf[q - p + centre], q - p in
// (-extent, extent). A circular convolution of size M is exact when no other shift q - p +- M lands
// in the PSF's support [-centre, psf_extent - centre): M >= psf_extent - centre + extent - 1 and
// M >= extent + centre, i.e. 2N for a PSF twice the image, 1.5N for one of its size; M is then
// rounded up to a product of 2, 3, 5 and 7.
#pragma once

#include <cuda_runtime_api.h>
#include <cufft.h>

#include <cstdint>

#include "bkt/device_buffer.hpp"
#include "plane_geometry.hpp"

namespace bkt::clean::gpu {

/// The smallest size >= `at_least` whose only prime factors are 2, 3, 5 and 7.
std::int64_t fft_friendly_size(std::int64_t at_least);

/// The padded FFT size along one axis (see above).
std::int64_t padded_fft_extent(std::int64_t extent, std::int64_t psf_extent, std::int64_t psf_centre);

/// A cuFFT plan that destroys itself.
class fft_plan {
 public:
  fft_plan() = default;
  /// A 2-D real transform (R2C or C2R) of height x width, `batch` of them back to back.
  fft_plan(std::int64_t height, std::int64_t width, cufftType type, int batch, cudaStream_t stream);
  fft_plan(fft_plan&& other) noexcept;
  fft_plan& operator=(fft_plan&& other) noexcept;
  fft_plan(const fft_plan&) = delete;
  fft_plan& operator=(const fft_plan&) = delete;
  ~fft_plan();
  cufftHandle get() const noexcept { return handle_; }

 private:
  cufftHandle handle_ = 0;
  bool owned_ = false;
};

class fft_convolver {
 public:
  /// Transforms the PSFs once (device memory, g.psf_width x g.psf_height each, centre as in `g`,
  /// `psf_planes` of them back to back: one for every plane, or one per plane), for `planes`
  /// images of geometry `g` per call, transformed `batch` at a time (batch divides planes; 0:
  /// all at once). Work memory grows with the batch, the PSF spectra with psf_planes. With psf
  /// nullptr the caller gives each PSF by load_psf() before the first call.
  fft_convolver(const plane_geometry& g, const float* psf, int planes, cudaStream_t stream, int psf_planes = 1,
                int batch = 0);

  /// For each plane i: residual[i][q] = dirty[i][q] - (model[i] (*) psf[i])[q], NaN dirty pixels
  /// copied unchanged. dirty and model planes lie g.pixels() floats apart, residual planes
  /// g.padded_pixels() apart (device planes; their padding is left alone). Asynchronous.
  void subtract_convolved(const float* dirty, const float* model, float* residual, cudaStream_t stream);
  /// The same with every kind of plane `stride` floats apart.
  void subtract_convolved(const float* dirty, const float* model, float* residual, std::int64_t stride,
                          cudaStream_t stream);

  /// Transforms PSF number `plane` (device memory, as above); waits for `stream`.
  void load_psf(int plane, const float* psf, cudaStream_t stream);

  /// Device bytes a convolver of these sizes holds (its buffers; cuFFT's work areas come on top).
  static std::int64_t device_bytes(const plane_geometry& g, int psf_planes, int batch);

  std::int64_t padded_width() const { return padded_width_; }
  std::int64_t padded_height() const { return padded_height_; }

 private:
  void subtract_group(const float* dirty, const float* model, float* residual, std::int64_t dirty_stride,
                      std::int64_t model_stride, std::int64_t residual_stride, int first, cudaStream_t stream);

  plane_geometry geometry_;
  int planes_ = 1;
  int psf_planes_ = 1;
  int batch_ = 1;
  std::int64_t padded_width_ = 0, padded_height_ = 0;
  device_buffer<float> padded_;                   // batch x padded_height x padded_width
  device_buffer<cufftComplex> spectrum_;          // batch x padded_height x (padded_width / 2 + 1)
  device_buffer<cufftComplex> psf_spectrum_;      // psf_planes x padded_height x (padded_width / 2 + 1)
  fft_plan forward_, inverse_;
};

}  // namespace bkt::clean::gpu
