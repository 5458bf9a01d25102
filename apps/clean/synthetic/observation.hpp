// A synthetic observation for tests and benchmarks: a true sky of point sources and optional
// extended Gaussians, a realistic PSF (uv_psf.hpp), and the dirty image they make with noise.
#pragma once

#include <cstdint>
#include <vector>

#include "image.hpp"
#include "synthetic/uv_psf.hpp"

namespace bkt::clean::synthetic {

/// A point source: flux (image units) at one pixel.
struct point_source {
  std::int64_t x = 0;
  std::int64_t y = 0;
  double flux = 0;
};

/// An elliptical Gaussian source: peak (image units per pixel) at (x, y), widths in pixels, major
/// axis angle in radians counter-clockwise from +x.
struct gaussian_source {
  double x = 0;
  double y = 0;
  double peak = 0;
  double major_fwhm = 1;
  double minor_fwhm = 1;
  double angle = 0;
};

struct observation_config {
  std::int64_t width = 256;
  std::int64_t height = 256;
  bool psf_twice_size = false;   // the PSF is (2 width) x (2 height) instead of width x height
  uv_coverage_config coverage;   // its width and height are set from the two above
  std::vector<point_source> points;
  std::vector<gaussian_source> extended;
  double noise_sigma = 0;        // white Gaussian noise added to the dirty image
  std::uint64_t seed = 1;        // of the noise
};

struct observation {
  image sky;    // the truth, per pixel
  image psf;    // peak 1 at psf_centre
  image dirty;  // sky convolved with psf (psf_convolution.hpp), plus noise
};

/// Makes the observation the config describes. Throws std::invalid_argument when a point source
/// lies outside the image.
observation make_observation(const observation_config& config);

/// `count` point sources with fluxes uniform in [min_flux, max_flux], at least `margin` pixels from
/// the edges and `min_separation` pixels from each other (gives up, returning fewer, when the
/// image is too crowded).
std::vector<point_source> random_point_sources(std::int64_t width, std::int64_t height, int count, double min_flux,
                                               double max_flux, double min_separation, std::int64_t margin,
                                               std::uint64_t seed);

}  // namespace bkt::clean::synthetic
