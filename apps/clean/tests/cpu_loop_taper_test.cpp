// The multiscale sub-minor loop's PSF taper (joint/loop_taper.hpp): weight 1 at the centre and 0
// at the plane's edge, and a cut-off positive-definite kernel times it is positive definite again
// where the cut-off kernel alone is not.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "joint/loop_taper.hpp"
#include "synthetic/seeded_random.hpp"

namespace bkt::clean {
namespace {

TEST(loop_taper, is_one_at_the_centre_and_falls_to_zero_at_the_edge) {
  EXPECT_EQ(loop_taper(64, 32, 128, 64), 1.0f);
  EXPECT_EQ(loop_taper(0, 32, 128, 64), 0.0f);
  EXPECT_EQ(loop_taper(64, 0, 128, 64), 0.0f);
  EXPECT_FLOAT_EQ(loop_taper(32, 16, 128, 64), 0.25f);
  EXPECT_EQ(loop_taper(64 - 10, 32 + 7, 128, 64), loop_taper(64 + 10, 32 - 7, 128, 64));
  // Odd sides: every pixel inside keeps a positive weight.
  EXPECT_GT(loop_taper(0, 0, 127, 63), 0.0f);
  EXPECT_EQ(loop_taper(63, 31, 127, 63), 1.0f);
}

/// The smallest value of the spectrum of `kernel` (n x n, centre n / 2, as a linear-convolution
/// kernel over the plane's offsets) on a grid `oversample` times finer than the plane's: below
/// zero, the kernel is not positive definite.
double smallest_spectrum_value(const std::vector<double>& kernel, int n, int oversample) {
  const int cells = n * oversample;
  double smallest = 1e300;
  for (int fv = 0; fv < cells; ++fv)
    for (int fu = 0; fu < cells; ++fu) {
      double sum = 0;
      for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x)
          sum += kernel[static_cast<std::size_t>(y * n + x)] *
                 std::cos(2 * std::numbers::pi * (static_cast<double>(fu) * (x - n / 2) + static_cast<double>(fv) * (y - n / 2)) /
                          cells);
      smallest = std::min(smallest, sum);
    }
  return smallest;
}

TEST(loop_taper, makes_a_cut_off_sparse_psf_positive_definite) {
  // A PSF of a few uv samples, periodic over the plane (as a PSF of the image's size is), cut off
  // at its edges: the loop's kernel before the taper.
  constexpr int n = 24;
  synthetic::seeded_random random(5);
  std::vector<double> psf(n * n, 0.0);
  for (int sample = 0; sample < 6; ++sample) {
    const double u = std::floor(random.uniform(1, n / 2.0)), v = std::floor(random.uniform(-n / 2.0, n / 2.0));
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x)
        psf[static_cast<std::size_t>(y * n + x)] += std::cos(2 * std::numbers::pi * (u * (x - n / 2) + v * (y - n / 2)) / n);
  }
  std::vector<double> tapered = psf;
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) tapered[static_cast<std::size_t>(y * n + x)] *= loop_taper(x, y, n, n);
  const double peak = psf[static_cast<std::size_t>(n / 2 * n + n / 2)];
  EXPECT_LT(smallest_spectrum_value(psf, n, 4), -0.01 * peak);
  EXPECT_GE(smallest_spectrum_value(tapered, n, 4), -1e-6 * peak);  // the float weights round
}

}  // namespace
}  // namespace bkt::clean
