#include "cpu/padded_convolver.hpp"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <stdexcept>

namespace bkt::clean::cpu {
namespace {

// Offsets q - p between two pixels of an image of `extent` pixels span [-(extent-1), extent-1];
// the kernel only has offsets d in [-centre, kernel_extent-1-centre]. Those are the ones used.
struct offset_range {
  std::int64_t lowest;
  std::int64_t highest;
};

offset_range used_offsets(std::int64_t extent, std::int64_t kernel_extent, std::int64_t centre) {
  return {std::max(-(extent - 1), -centre), std::min(extent - 1, kernel_extent - 1 - centre)};
}

}  // namespace

std::int64_t padded_extent(std::int64_t extent, std::int64_t kernel_extent, std::int64_t centre) {
  // Circular convolution of length n puts kernel offset d in slot d mod n. An image offset e that
  // the kernel lacks must not share a slot with a used d: n > e - d and n > d - e for all of them.
  const offset_range used = used_offsets(extent, kernel_extent, centre);
  const std::int64_t needed = std::max({extent - used.lowest, extent + used.highest, extent});
  return fft_friendly_size(needed);
}

padded_convolver::padded_convolver(const image& kernel, std::int64_t centre_x, std::int64_t centre_y,
                                   std::int64_t width, std::int64_t height, int threads)
    : width_(width), height_(height) {
  if (width < 1 || height < 1) throw std::invalid_argument("padded_convolver: empty image");
  padded_width_ = padded_extent(width, kernel.width, centre_x);
  padded_height_ = padded_extent(height, kernel.height, centre_y);
  spectrum_width_ = padded_width_ / 2 + 1;
  const auto spectrum_size = static_cast<std::size_t>(padded_height_ * spectrum_width_);
  kernel_spectrum_ = make_fftwf_array<fftwf_complex>(spectrum_size);
  work_ = make_fftwf_array<fftwf_complex>(spectrum_size);

  float* const real = reinterpret_cast<float*>(work_.get());
  const std::int64_t real_stride = 2 * spectrum_width_;
  {
    const std::lock_guard<std::mutex> lock(fftw_planner_mutex());
    plan_with_threads(threads);
    // FFTW_ESTIMATE: no timing runs, so the plan (and every result) is the same on every run.
    const int rows = static_cast<int>(padded_height_);
    const int columns = static_cast<int>(padded_width_);
    forward_ = fftwf_plan_owner(fftwf_plan_dft_r2c_2d(rows, columns, real, work_.get(), FFTW_ESTIMATE));
    backward_ = fftwf_plan_owner(fftwf_plan_dft_c2r_2d(rows, columns, work_.get(), real, FFTW_ESTIMATE));
  }
  if (forward_.get() == nullptr || backward_.get() == nullptr)
    throw std::runtime_error("padded_convolver: FFTW could not plan the transforms");

  // The kernel goes in with its centre at slot (0, 0), each used offset d at slot d mod n.
  std::memset(work_.get(), 0, spectrum_size * sizeof(fftwf_complex));
  const offset_range used_x = used_offsets(width, kernel.width, centre_x);
  const offset_range used_y = used_offsets(height, kernel.height, centre_y);
  for (std::int64_t dy = used_y.lowest; dy <= used_y.highest; ++dy) {
    const std::int64_t slot_y = (dy + padded_height_) % padded_height_;
    for (std::int64_t dx = used_x.lowest; dx <= used_x.highest; ++dx) {
      const std::int64_t slot_x = (dx + padded_width_) % padded_width_;
      real[slot_y * real_stride + slot_x] = kernel.at(centre_x + dx, centre_y + dy);
    }
  }
  fftwf_execute(forward_.get());
  // FFTW's transforms are unnormalised: fold 1 / (n_x n_y) into the kernel once.
  const double padded_pixels = static_cast<double>(padded_width_) * static_cast<double>(padded_height_);
  const auto scale = static_cast<float>(1.0 / padded_pixels);
  for (std::size_t i = 0; i < spectrum_size; ++i) {
    kernel_spectrum_[i][0] = work_[i][0] * scale;
    kernel_spectrum_[i][1] = work_[i][1] * scale;
  }
}

void padded_convolver::convolve(const float* in, float* out) {
  float* const real = reinterpret_cast<float*>(work_.get());
  const std::int64_t real_stride = 2 * spectrum_width_;
  const auto spectrum_size = static_cast<std::size_t>(padded_height_ * spectrum_width_);
  std::memset(work_.get(), 0, spectrum_size * sizeof(fftwf_complex));
  for (std::int64_t y = 0; y < height_; ++y)
    std::copy_n(in + y * width_, width_, real + y * real_stride);
  fftwf_execute(forward_.get());
  for (std::size_t i = 0; i < spectrum_size; ++i) {
    const float re = work_[i][0] * kernel_spectrum_[i][0] - work_[i][1] * kernel_spectrum_[i][1];
    const float im = work_[i][0] * kernel_spectrum_[i][1] + work_[i][1] * kernel_spectrum_[i][0];
    work_[i][0] = re;
    work_[i][1] = im;
  }
  fftwf_execute(backward_.get());
  for (std::int64_t y = 0; y < height_; ++y)
    std::copy_n(real + y * real_stride, width_, out + y * width_);
}

}  // namespace bkt::clean::cpu
