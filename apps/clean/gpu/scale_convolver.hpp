// Circular convolution at an image's own size with cuFFT: the multiscale scales' convolutions
// (joint/scale_kernels.hpp says why no padding is needed), the GPU twin of
// cpu/circular_convolver.hpp. One plane at a time; the spectrum of the last forward transform is
// kept, so that several kernels can be applied to it (one forward, one inverse per scale).
#pragma once

#include <cuda_runtime_api.h>
#include <cufft.h>

#include <cstdint>
#include <vector>

#include "bkt/device_buffer.hpp"
#include "fft_convolver.hpp"

namespace bkt::clean::gpu {

class scale_convolver {
 public:
  scale_convolver(std::int64_t width, std::int64_t height, cudaStream_t stream);

  std::int64_t spectrum_cells() const { return height_ * (width_ / 2 + 1); }

  /// The spectrum of a kernel (host values, odd width, centre at width / 2) placed with its
  /// centre at (0, 0), divided by width x height.
  device_buffer<cufftComplex> spectrum_of(const std::vector<float>& kernel, std::int64_t kernel_width,
                                          cudaStream_t stream);

  /// Transforms `in` (width x height floats; NaN read as 0) and keeps its spectrum.
  void forward(const float* in, cudaStream_t stream);
  /// out = inverse(kept spectrum x kernel); the kept spectrum stays.
  void inverse_times(const cufftComplex* kernel, float* out, cudaStream_t stream);
  /// out = in (*) kernel (NaN read as 0; out may be in).
  void convolve(const float* in, const cufftComplex* kernel, float* out, cudaStream_t stream);

  /// Device bytes of the buffers (cuFFT's work areas come on top).
  static std::int64_t device_bytes(std::int64_t width, std::int64_t height);

 private:
  std::int64_t width_, height_;
  device_buffer<float> real_;
  device_buffer<cufftComplex> spectrum_, product_;
  fft_plan forward_, inverse_;
};

}  // namespace bkt::clean::gpu
