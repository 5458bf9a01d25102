// Circular convolution at an image's own size through float FFTs (FFTW): the multiscale scales'
// convolutions, whose kernels never reach across an edge from the pixels that are read (each
// scale keeps its components ceil(size / 2) from the edges; joint/scale_kernels.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "cpu/fftw_support.hpp"
#include "image.hpp"

namespace bkt::clean::cpu {

/// A kernel's spectrum at the convolver's size, normalised by 1 / (width x height).
using kernel_spectrum = fftwf_array<fftwf_complex>;

class circular_convolver {
 public:
  circular_convolver(std::int64_t width, std::int64_t height);

  std::int64_t width() const { return width_; }
  std::int64_t height() const { return height_; }
  std::int64_t spectrum_size() const { return height_ * (width_ / 2 + 1); }

  /// The spectrum of `kernel` (odd width, centred at width / 2) placed with its centre at (0, 0).
  kernel_spectrum spectrum_of(const std::vector<float>& kernel, std::int64_t kernel_width) const;

  /// Work buffers for one thread: convolve() may run on several threads, each with its own.
  struct work {
    fftwf_array<float> real;
    fftwf_array<fftwf_complex> spectrum;
    fftwf_array<fftwf_complex> product;  // the inverse transform's input, which it destroys
  };
  work make_work() const;

  /// The forward transform of `in` (width x height; NaN read as 0) into w.spectrum.
  void forward(const float* in, work& w) const;
  /// out = inverse(w.spectrum x kernel), w.spectrum left unchanged.
  void inverse_times(const kernel_spectrum& kernel, work& w, float* out) const;
  /// out = inverse(spectrum x kernel) through w's buffers: several threads may share `spectrum`.
  void inverse_times(const fftwf_complex* spectrum, const kernel_spectrum& kernel, work& w, float* out) const;
  /// out = in (*) kernel (NaN read as 0; out may be in).
  void convolve(const float* in, const kernel_spectrum& kernel, work& w, float* out) const;

 private:
  std::int64_t width_, height_;
  fftwf_plan_owner forward_, inverse_;
};

}  // namespace bkt::clean::cpu
