// The simulated 4-channel field of data/clean/wsclean-sim-4ch with WSClean's deconvolution of it
// (data/clean/README.md): the inputs as a channel_set, WSClean's settings as joint_params, the
// true sources in pixels, and the measures the joint engine's tests compare with WSClean by.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "deconvolve.hpp"
#include "io/fits_image.hpp"
#include "joint/joint_clean.hpp"

#ifndef BKT_DATA_DIR
#define BKT_DATA_DIR "/work/main/data"
#endif

namespace clean_test {

inline std::string wsclean_field_file(const std::string& name) {
  return std::string(BKT_DATA_DIR) + "/clean/wsclean-sim-4ch/" + name;
}

inline std::string channel_name(const std::string& prefix, int channel, const std::string& kind) {
  char number[8];
  std::snprintf(number, sizeof number, "%04d", channel);
  return wsclean_field_file(prefix + "-" + number + "-" + kind + ".fits");
}

/// The four channels (1.2 to 1.5 GHz), PSFs prepared, equal weights (their WSCIMGWG are equal).
inline bkt::clean::channel_set wsclean_field_channels() {
  bkt::clean::channel_set channels;
  for (int c = 0; c < 4; ++c) {
    const bkt::clean::image dirty = bkt::clean::read_fits_image(channel_name("sim", c, "dirty")).planes.front();
    const bkt::clean::image psf = bkt::clean::read_fits_image(channel_name("sim", c, "psf")).planes.front();
    channels.psf.push_back(bkt::clean::prepare_psf(psf, dirty, "psf"));
    channels.dirty.push_back(dirty);
    channels.weights.push_back(1.0);
    channels.frequencies.push_back(1.2e9 + 1e8 * c);
  }
  return channels;
}

/// WSClean's run (COMMANDS.txt): -multiscale -join-channels -auto-threshold 1 -auto-mask 3
/// -mgain 0.8 -fit-spectral-pol 2 -niter 100000, gain 0.1, scales from the fitted beam.
inline bkt::clean::joint_params wsclean_field_params(const bkt::clean::channel_set& channels) {
  bkt::clean::joint_params params;
  params.method = bkt::clean::algorithm::multiscale;
  params.niter = 100000;
  params.levels.auto_threshold = 1.0;
  params.levels.auto_mask = 3.0;
  params.spectral_terms = 2;
  params.beam_fwhm = bkt::clean::fit_beam(bkt::clean::integrated_psf(channels)).minor_fwhm;
  return params;
}

/// One source of SKY.txt, in pixels (x = 128 - east / 6", y = 128 + north / 6").
struct true_source {
  double x = 0, y = 0;
  double flux = 0;            // Jy at 1.35 GHz (integrated, for a Gaussian)
  double spectral_index = 0;
  double major_fwhm = 0, minor_fwhm = 0;  // pixels; 0 for a point
  double position_angle = 0;  // degrees east of north
};

inline std::vector<true_source> wsclean_field_sources() {
  std::ifstream file(wsclean_field_file("SKY.txt"));
  std::vector<true_source> sources;
  for (std::string line; std::getline(file, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    double east = 0, north = 0;
    true_source source;
    fields >> east >> north >> source.flux >> source.spectral_index >> source.major_fwhm >> source.minor_fwhm >>
        source.position_angle;
    source.x = 128 - east / 6;
    source.y = 128 + north / 6;
    source.major_fwhm /= 6;
    source.minor_fwhm /= 6;
    sources.push_back(source);
  }
  return sources;
}

/// The sky at `frequency`, rendered: points at their pixel, Gaussians integrated to their flux.
inline bkt::clean::image render_sources(const std::vector<true_source>& sources, double frequency) {
  bkt::clean::image sky{256, 256, std::vector<float>(256 * 256, 0.0f)};
  for (const true_source& s : sources) {
    const double flux = s.flux * std::pow(frequency / 1.35e9, s.spectral_index);
    if (s.major_fwhm == 0) {
      sky.at(static_cast<std::int64_t>(std::lround(s.x)), static_cast<std::int64_t>(std::lround(s.y))) +=
          static_cast<float>(flux);
      continue;
    }
    // The major axis points position_angle east of north: east is -x, north +y.
    const double angle = s.position_angle * 3.14159265358979 / 180, ux = -std::sin(angle), uy = std::cos(angle);
    const double major = s.major_fwhm / 2.35482, minor = s.minor_fwhm / 2.35482;
    const double peak = flux / (2 * 3.14159265358979 * major * minor);
    for (std::int64_t y = 0; y < 256; ++y)
      for (std::int64_t x = 0; x < 256; ++x) {
        const double dx = static_cast<double>(x) - s.x, dy = static_cast<double>(y) - s.y;
        const double along = dx * ux + dy * uy, across = -dx * uy + dy * ux;
        sky.at(x, y) += static_cast<float>(peak * std::exp(-0.5 * (along * along / (major * major) + across * across / (minor * minor))));
      }
  }
  return sky;
}

/// Each pixel's source: the one it is nearest to in units of the source's size (its FWHM, at
/// least 2 pixels), within 2 sizes; -1 for none. Sources that overlap split their pixels alike
/// for the truth and for a model.
inline std::vector<int> source_regions(const std::vector<true_source>& sources) {
  std::vector<int> owner(256 * 256, -1);
  for (std::int64_t y = 0; y < 256; ++y)
    for (std::int64_t x = 0; x < 256; ++x) {
      double best = 2;
      for (std::size_t s = 0; s < sources.size(); ++s) {
        const double size = std::max(sources[s].major_fwhm, 2.0);
        const double distance = std::hypot(static_cast<double>(x) - sources[s].x, static_cast<double>(y) - sources[s].y) / size;
        if (distance < best) {
          best = distance;
          owner[static_cast<std::size_t>(y * 256 + x)] = static_cast<int>(s);
        }
      }
    }
  return owner;
}

/// Per source: the flux of `picture` over its region, and the flux-weighted centroid.
struct region_measure {
  double flux = 0, x = 0, y = 0;
};

inline std::vector<region_measure> measure_regions(const bkt::clean::image& picture, const std::vector<int>& owner,
                                                   std::size_t sources) {
  std::vector<region_measure> measures(sources);
  for (std::int64_t y = 0; y < picture.height; ++y)
    for (std::int64_t x = 0; x < picture.width; ++x) {
      const int s = owner[static_cast<std::size_t>(y * picture.width + x)];
      if (s < 0) continue;
      const double value = picture.at(x, y);
      region_measure& m = measures[static_cast<std::size_t>(s)];
      m.flux += value;
      m.x += value * static_cast<double>(x);
      m.y += value * static_cast<double>(y);
    }
  for (region_measure& m : measures)
    if (m.flux != 0) {
      m.x /= m.flux;
      m.y /= m.flux;
    }
  return measures;
}

/// The weighted mean of the channel images (equal weights here): the MFS image.
inline bkt::clean::image channel_mean(const std::vector<bkt::clean::image>& planes) {
  bkt::clean::image mean{planes.front().width, planes.front().height,
                         std::vector<float>(planes.front().pixels.size(), 0.0f)};
  for (const bkt::clean::image& plane : planes)
    for (std::size_t i = 0; i < mean.pixels.size(); ++i)
      mean.pixels[i] += plane.pixels[i] / static_cast<float>(planes.size());
  return mean;
}

inline double image_sum(const bkt::clean::image& picture) {
  double sum = 0;
  for (float value : picture.pixels) sum += value;
  return sum;
}

inline double mad_noise(const bkt::clean::image& picture) { return bkt::clean::mad_sigma(picture, {}); }

}  // namespace clean_test
