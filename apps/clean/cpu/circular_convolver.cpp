#include "cpu/circular_convolver.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace bkt::clean::cpu {

circular_convolver::circular_convolver(std::int64_t width, std::int64_t height) : width_(width), height_(height) {
  if (width < 1 || height < 1) throw std::invalid_argument("circular_convolver: empty image");
  work probe = make_work();
  const std::lock_guard<std::mutex> lock(fftw_planner_mutex());
  plan_with_threads(1);
  // FFTW_ESTIMATE leaves the buffers alone and gives the same plan on every run; the new-array
  // execute functions then run the plans on any buffers of the same alignment (fftwf_malloc's).
  const int rows = static_cast<int>(height), columns = static_cast<int>(width);
  forward_ = fftwf_plan_owner(fftwf_plan_dft_r2c_2d(rows, columns, probe.real.get(), probe.spectrum.get(), FFTW_ESTIMATE));
  inverse_ = fftwf_plan_owner(fftwf_plan_dft_c2r_2d(rows, columns, probe.spectrum.get(), probe.real.get(),
                                                    FFTW_ESTIMATE | FFTW_DESTROY_INPUT));
  if (forward_.get() == nullptr || inverse_.get() == nullptr)
    throw std::runtime_error("circular_convolver: FFTW could not plan the transforms");
}

circular_convolver::work circular_convolver::make_work() const {
  const auto cells = static_cast<std::size_t>(spectrum_size());
  return {make_fftwf_array<float>(static_cast<std::size_t>(width_ * height_)), make_fftwf_array<fftwf_complex>(cells),
          make_fftwf_array<fftwf_complex>(cells)};
}

kernel_spectrum circular_convolver::spectrum_of(const std::vector<float>& kernel, std::int64_t kernel_width) const {
  work w = make_work();
  std::fill_n(w.real.get(), width_ * height_, 0.0f);
  const std::int64_t half = kernel_width / 2;
  for (std::int64_t dy = -half; dy <= half; ++dy)
    for (std::int64_t dx = -half; dx <= half; ++dx) {
      const std::int64_t x = ((dx % width_) + width_) % width_, y = ((dy % height_) + height_) % height_;
      w.real[static_cast<std::size_t>(y * width_ + x)] += kernel[static_cast<std::size_t>((dy + half) * kernel_width + dx + half)];
    }
  fftwf_execute_dft_r2c(forward_.get(), w.real.get(), w.spectrum.get());
  const float scale = 1.0f / static_cast<float>(static_cast<double>(width_) * static_cast<double>(height_));
  for (std::int64_t i = 0; i < spectrum_size(); ++i) {
    w.spectrum[i][0] *= scale;
    w.spectrum[i][1] *= scale;
  }
  return std::move(w.spectrum);
}

void circular_convolver::forward(const float* in, work& w) const {
  // NaN (blank) pixels read as 0, as the GPU's scale_convolver reads them.
  std::transform(in, in + width_ * height_, w.real.get(), [](float value) { return std::isnan(value) ? 0.0f : value; });
  fftwf_execute_dft_r2c(forward_.get(), w.real.get(), w.spectrum.get());
}

void circular_convolver::inverse_times(const kernel_spectrum& kernel, work& w, float* out) const {
  inverse_times(w.spectrum.get(), kernel, w, out);
}

void circular_convolver::inverse_times(const fftwf_complex* spectrum, const kernel_spectrum& kernel, work& w,
                                       float* out) const {
  fftwf_complex* product = w.product.get();
  for (std::int64_t i = 0; i < spectrum_size(); ++i) {
    const float re = spectrum[i][0] * kernel[i][0] - spectrum[i][1] * kernel[i][1];
    const float im = spectrum[i][0] * kernel[i][1] + spectrum[i][1] * kernel[i][0];
    product[i][0] = re;
    product[i][1] = im;
  }
  fftwf_execute_dft_c2r(inverse_.get(), product, w.real.get());
  std::copy_n(w.real.get(), width_ * height_, out);
}

void circular_convolver::convolve(const float* in, const kernel_spectrum& kernel, work& w, float* out) const {
  forward(in, w);
  inverse_times(kernel, w, out);
}

}  // namespace bkt::clean::cpu
