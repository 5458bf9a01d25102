#include "synthetic/spectral_field.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "cpu/row_chunks.hpp"

namespace bkt::clean::synthetic {

spectral_field make_spectral_field(const spectral_field_config& config) {
  if (config.point_indices.size() != config.base.points.size() ||
      config.extended_indices.size() != config.base.extended.size() || config.frequencies.empty())
    throw std::invalid_argument("make_spectral_field: one spectral index per source and at least one frequency");
  const double highest = *std::max_element(config.frequencies.begin(), config.frequencies.end());
  for (const point_source& source : config.base.points)  // checked here: the workers must not throw
    if (source.x < 0 || source.x >= config.base.width || source.y < 0 || source.y >= config.base.height)
      throw std::invalid_argument("make_spectral_field: a point source lies outside the image");
  const std::size_t count = config.frequencies.size();
  std::vector<observation> made(count);
  // Channels are independent: made side by side.
  cpu::for_each_index(static_cast<std::int64_t>(count), cpu::row_worker_count(), [&](std::int64_t index) {
    const auto c = static_cast<std::size_t>(index);
    const double frequency = config.frequencies[c];
    observation_config channel = config.base;
    channel.coverage.max_uv_fraction *= frequency / highest;
    channel.seed = config.base.seed + c;
    for (std::size_t i = 0; i < channel.points.size(); ++i)
      channel.points[i].flux *= std::pow(frequency / config.reference_frequency, config.point_indices[i]);
    for (std::size_t i = 0; i < channel.extended.size(); ++i)
      channel.extended[i].peak *= std::pow(frequency / config.reference_frequency, config.extended_indices[i]);
    made[c] = make_observation(channel);
  });
  spectral_field field;
  for (std::size_t c = 0; c < count; ++c) {
    field.channels.dirty.push_back(std::move(made[c].dirty));
    field.channels.psf.push_back(std::move(made[c].psf));
    field.channels.weights.push_back(1.0);
    field.channels.frequencies.push_back(config.frequencies[c]);
    field.skies.push_back(std::move(made[c].sky));
  }
  return field;
}

}  // namespace bkt::clean::synthetic
