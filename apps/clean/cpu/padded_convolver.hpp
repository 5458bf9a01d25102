// Linear (not circular) convolution of an image with a fixed kernel through zero-padded float FFTs:
// Clark's major cycle (model * PSF), restore (model * beam) and the synthetic sky (sky * PSF).
#pragma once

#include <cstdint>

#include "cpu/fftw_support.hpp"
#include "image.hpp"

namespace bkt::clean::cpu {

class padded_convolver {
 public:
  /// Prepares out[q] = sum_p in[p] * kernel[q - p + centre] for width x height images, with no
  /// wrap-around; kernel pixels outside the kernel count as 0. Transforms the kernel once. The
  /// transforms run on `threads` threads (FFTW's own).
  padded_convolver(const image& kernel, std::int64_t centre_x, std::int64_t centre_y, std::int64_t width,
                   std::int64_t height, int threads = 1);

  /// Convolves width * height values of `in` into `out` (which may be `in`). Uses one work buffer:
  /// one call at a time per object.
  void convolve(const float* in, float* out);

  std::int64_t padded_width() const { return padded_width_; }
  std::int64_t padded_height() const { return padded_height_; }

 private:
  std::int64_t width_;
  std::int64_t height_;
  std::int64_t padded_width_;
  std::int64_t padded_height_;
  std::int64_t spectrum_width_;  // padded_width / 2 + 1 complex values per row
  fftwf_array<fftwf_complex> kernel_spectrum_;
  fftwf_array<fftwf_complex> work_;  // in place: rows of 2 * spectrum_width floats when real
  fftwf_plan_owner forward_;
  fftwf_plan_owner backward_;
};

/// The padded length along one axis for an image of `extent` pixels and a kernel of
/// `kernel_extent` centred at `centre`: long enough that no used kernel offset aliases another.
std::int64_t padded_extent(std::int64_t extent, std::int64_t kernel_extent, std::int64_t centre);

}  // namespace bkt::clean::cpu
