// Sizes of one image plane and its PSF as the kernels see them (32-bit, checked once).
#pragma once

#include <cstdint>

#include "image.hpp"
#include "bkt/config.hpp"

namespace bkt::clean::gpu {

/// Images of up to 2^30 pixels (so that pixel indices fit the peak key) and PSFs of up to 2^31 - 1.
inline constexpr std::int64_t max_image_pixels = std::int64_t{1} << 30;

struct plane_geometry {
  std::int32_t width = 0;
  std::int32_t height = 0;
  std::int32_t psf_width = 0;
  std::int32_t psf_height = 0;
  std::int32_t psf_centre_x = 0;  // psf_centre(psf_width)
  std::int32_t psf_centre_y = 0;

  BKT_HOST_DEVICE std::int32_t pixels() const { return width * height; }
  /// Device planes hold a multiple of 4 floats, so that every float4 load is in bounds; the
  /// padding is NaN: never a candidate, never updated.
  BKT_HOST_DEVICE std::int32_t padded_pixels() const { return (pixels() + 3) / 4 * 4; }
};

/// Checks the parameters (the CPU path's limits) and the sizes (PSF the image's size or twice it
/// along both axes, mask empty or one entry per pixel, within the limits above); throws
/// bkt::error naming the problem.
plane_geometry make_geometry(const image& dirty, const image& psf, const clean_params& params);

/// The geometry of `dirty` and `psf` (centre at psf_centre), unchecked: for callers that checked
/// the sizes themselves.
plane_geometry geometry_of(const image& dirty, const image& psf);

/// Where one plane lives on the device.
struct device_plane {
  float* residual = nullptr;  // padded_pixels() floats, 16-byte aligned, padding NaN
  const float* psf = nullptr;  // psf_width * psf_height floats, peak 1 at the centre
  /// Bit q (word q / 32, bit q % 32) set: pixel q may take a component. nullptr: every pixel
  /// whose residual is not NaN may (NaN pixels of the dirty image stay NaN, so that is the rule).
  const std::uint32_t* candidate_bits = nullptr;
  plane_geometry geometry;
};

}  // namespace bkt::clean::gpu
