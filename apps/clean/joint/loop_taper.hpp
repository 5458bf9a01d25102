// The taper on a multiscale sub-minor loop's PSFs (joint_clean.hpp, step 2).
//
// A loop subtracts its PSF only at offsets inside the PSF plane, so it works with the PSF cut off
// at +-half the plane. A cut-off PSF is not positive definite (its spectrum rings below zero next
// to each uv sample), and a loop over many candidates with such a kernel can run away: on sparse
// uv coverage and a PSF of the image's size it built large-scale components of growing flux. The
// plane's value at offset (dx, dy) is therefore weighed by the separable triangle
// (1 - |dx| / (W / 2)) (1 - |dy| / (H / 2)): a triangle's spectrum (sinc^2) is non-negative, and
// the product of two positive-definite kernels is positive definite (Schur), so every loop is a
// descent on a positive quadratic form. The centre, where the gains are set, keeps weight 1;
// far offsets count less inside the loop, and each loop's exact residuals put them right.
#pragma once

#include <cstdint>

#include "bkt/config.hpp"

namespace bkt::clean {

/// The weight of pixel (x, y) of a width x height loop PSF centred at (width / 2, height / 2).
/// Computed in double so that the CPU and GPU paths taper to the same float.
BKT_HOST_DEVICE inline float loop_taper(std::int64_t x, std::int64_t y, std::int64_t width, std::int64_t height) {
  const double dx = static_cast<double>(x - width / 2), dy = static_cast<double>(y - height / 2);
  const double half_x = 0.5 * static_cast<double>(width), half_y = 0.5 * static_cast<double>(height);
  const double wx = 1 - (dx < 0 ? -dx : dx) / half_x, wy = 1 - (dy < 0 ? -dy : dy) / half_y;
  return static_cast<float>(wx * wy);
}

}  // namespace bkt::clean
