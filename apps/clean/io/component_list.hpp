// The clean components as a sky model: WSClean's text source list (P-sources.txt) and a JSON
// list (P-components.json); point components per model pixel (Högbom, Clark) or components by
// scale with spectral terms (the joint engine).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../image.hpp"
#include "sky_wcs.hpp"

namespace bkt::clean {

/// One model pixel with nonzero flux: the components found there, summed.
struct sky_component {
  std::int64_t plane = 0;
  std::int64_t x = 0, y = 0;         // pixels, 0-based
  float flux = 0;                    // image units (Jy for a Jy/beam image)
  std::optional<sky_position> sky;   // nullopt without a celestial WCS
  std::optional<double> frequency_hz;
};

/// The nonzero pixels of `model` (NaN ones excluded) with their sky positions from `wcs` at
/// `plane_position`, by descending |flux| (ties: lower y, then lower x).
std::vector<sky_component> model_components(const image& model, std::int64_t plane,
                                            const std::vector<std::int64_t>& plane_position, const sky_wcs& wcs);

/// Right ascension as WSClean writes it: hh:mm:ss.sss (degrees in, any value; wrapped to 0-24 h).
std::string format_ra(double ra_deg);
/// Declination as WSClean writes it: +dd.mm.ss.sss.
std::string format_dec(double dec_deg);

/// WSClean's source-list text: the Format line, then one POINT line per component, in the given
/// order, named s<i>c0. `default_frequency_hz` is the Format line's ReferenceFrequency. Components
/// without a sky position get empty Ra and Dec fields, under a comment that says so.
std::string wsclean_source_list(const std::vector<sky_component>& components, std::optional<double> default_frequency_hz);

/// [{"plane", "x", "y", "ra_deg", "dec_deg", "flux"}, ...]: ra_deg and dec_deg null without a
/// sky position.
nlohmann::json components_json(const std::vector<sky_component>& components);

/// A component of the joint engine, merged over the run: a scale's kernel at a pixel, its flux a
/// polynomial in x = frequency / reference - 1 (WSClean's spectral terms, LogarithmicSI false).
struct scaled_component {
  std::int64_t plane = 0;             // the plane of a cube cleaned plane by plane; 0 when joined
  std::int64_t x = 0, y = 0;          // pixels, 0-based
  int scale_index = 0;                // into the run's scales
  double scale_pixels = 0;            // 0: a point
  std::optional<sky_position> sky;    // nullopt without a celestial WCS
  double flux = 0;                    // I: the polynomial's value at the reference frequency
  std::vector<double> spectral_terms; // its terms after the first (empty: flat or not fitted)
  std::optional<double> frequency_hz; // the reference frequency
  std::optional<double> fwhm_arcsec;  // a Gaussian's major = minor axis; nullopt: POINT
  std::vector<std::optional<double>> channel_fluxes;  // per input channel; nullopt: a blank channel
};

/// WSClean's source-list text for components by scale, in the given order: s<scale>c<i>, i
/// counting each scale's components; POINT at scale 0 (and without a sky scale), else GAUSSIAN
/// with MajorAxis = MinorAxis = fwhm_arcsec and Orientation 0, as WSClean writes them.
std::string wsclean_source_list(const std::vector<scaled_component>& components, std::optional<double> default_frequency_hz);

/// [{"plane", "x", "y", "scale", "ra_deg", "dec_deg", "flux", "channel_fluxes", "spectral_terms"}, ...]:
/// spectral_terms (all of them, the first being flux) only when `fitted`.
nlohmann::json components_json(const std::vector<scaled_component>& components, bool fitted);

}  // namespace bkt::clean
