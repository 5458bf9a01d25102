// A synthetic multi-channel observation for the joint engine's tests and benchmark: the sources of
// an observation_config, each with a spectral index, seen at several frequencies through a PSF
// that narrows with frequency (the uv coverage, in wavelengths, grows with it), with noise.
#pragma once

#include <cstdint>
#include <vector>

#include "joint/joint_clean.hpp"
#include "synthetic/observation.hpp"

namespace bkt::clean::synthetic {

struct spectral_field_config {
  observation_config base;                // size, PSF (its max_uv_fraction holds at the highest frequency), noise, seed
  std::vector<double> point_indices;      // one spectral index per base.points
  std::vector<double> extended_indices;   // one per base.extended
  std::vector<double> frequencies;        // Hz, one per channel
  double reference_frequency = 1.4e9;     // where base's fluxes hold
};

struct spectral_field {
  channel_set channels;     // weights 1
  std::vector<image> skies; // the truth per channel
};

/// Builds the channels (make_observation per channel, the noise seed offset by the channel).
/// Throws std::invalid_argument when the index lists do not match the sources.
spectral_field make_spectral_field(const spectral_field_config& config);

}  // namespace bkt::clean::synthetic
