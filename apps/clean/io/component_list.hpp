// The clean components as a sky model: WSClean's text source list (P-sources.txt) and a JSON
// list (P-components.json).
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

}  // namespace bkt::clean
