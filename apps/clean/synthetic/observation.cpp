#include "synthetic/observation.hpp"

#include <cmath>
#include <stdexcept>

#include "cpu/beam_kernel.hpp"
#include "synthetic/psf_convolution.hpp"
#include "synthetic/seeded_random.hpp"

namespace bkt::clean::synthetic {
namespace {

void add_gaussian(const gaussian_source& source, image& sky) {
  const beam shape{source.major_fwhm, source.minor_fwhm, source.angle};
  // Out to 6 sigma of the major axis, where it is below 2e-8 of its peak.
  const double reach = 6 * source.major_fwhm / cpu::fwhm_per_sigma;
  const auto x_first = std::max<std::int64_t>(0, static_cast<std::int64_t>(std::floor(source.x - reach)));
  const auto x_last = std::min(sky.width - 1, static_cast<std::int64_t>(std::ceil(source.x + reach)));
  const auto y_first = std::max<std::int64_t>(0, static_cast<std::int64_t>(std::floor(source.y - reach)));
  const auto y_last = std::min(sky.height - 1, static_cast<std::int64_t>(std::ceil(source.y + reach)));
  for (std::int64_t y = y_first; y <= y_last; ++y)
    for (std::int64_t x = x_first; x <= x_last; ++x)
      sky.at(x, y) += static_cast<float>(source.peak * cpu::beam_value(shape, x - source.x, y - source.y));
}

}  // namespace

observation make_observation(const observation_config& config) {
  uv_coverage_config coverage = config.coverage;
  coverage.width = config.psf_twice_size ? 2 * config.width : config.width;
  coverage.height = config.psf_twice_size ? 2 * config.height : config.height;
  observation made;
  made.psf = make_uv_psf(coverage);

  const auto pixel_count = static_cast<std::size_t>(config.width * config.height);
  made.sky = image{config.width, config.height, std::vector<float>(pixel_count, 0.0f)};
  for (const point_source& source : config.points) {
    if (source.x < 0 || source.x >= config.width || source.y < 0 || source.y >= config.height)
      throw std::invalid_argument("make_observation: a point source lies outside the image");
    made.sky.at(source.x, source.y) += static_cast<float>(source.flux);
  }
  for (const gaussian_source& source : config.extended) add_gaussian(source, made.sky);

  made.dirty = convolve(made.sky, made.psf);
  if (config.noise_sigma > 0) {
    seeded_random random(config.seed);
    for (float& value : made.dirty.pixels) value += static_cast<float>(config.noise_sigma * random.normal());
  }
  return made;
}

std::vector<point_source> random_point_sources(std::int64_t width, std::int64_t height, int count, double min_flux,
                                               double max_flux, double min_separation, std::int64_t margin,
                                               std::uint64_t seed) {
  seeded_random random(seed);
  std::vector<point_source> sources;
  if (width <= 2 * margin || height <= 2 * margin) return sources;
  for (int attempt = 0; attempt < 1000 * count && static_cast<int>(sources.size()) < count; ++attempt) {
    const auto x = margin + static_cast<std::int64_t>(random.uniform() * static_cast<double>(width - 2 * margin));
    const auto y = margin + static_cast<std::int64_t>(random.uniform() * static_cast<double>(height - 2 * margin));
    const double flux = random.uniform(min_flux, max_flux);
    bool clear = true;
    for (const point_source& other : sources)
      clear = clear && std::hypot(static_cast<double>(x - other.x), static_cast<double>(y - other.y)) >= min_separation;
    if (clear) sources.push_back({x, y, flux});
  }
  return sources;
}

}  // namespace bkt::clean::synthetic
