// The frame of a quick-look panel in sky coordinates, as image viewers label it: each
// coordinate's ticks sit where its grid lines cross the frame (found by walking the edge through
// the WCS, so rotated and curved projections come out right), with sexagesimal labels for
// RA/Dec, degrees for other celestial systems, and pixel numbers without a celestial WCS.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bkt_apps/plot/axes.hpp"
#include "sky_wcs.hpp"

namespace bkt::clean {

/// Ticks and titles for the bottom and left edges of a width x height image shown north (+y) up,
/// the plane at `plane_position`. The celestial coordinate that changes more along the bottom
/// edge labels it (RA for the usual orientation), the other one the left edge. `header` gives
/// CTYPE (RA or another longitude) and RADESYS (shown in the titles).
bkt::apps::plot::frame_axes sky_axes(const sky_wcs& wcs, const std::string& header, std::int64_t width,
                                     std::int64_t height, const std::vector<std::int64_t>& plane_position);

/// A right ascension in degrees as hours, minutes and seconds ("12h30m15s"), to the resolution
/// of `step_deg` (the tick spacing): "12h" for steps of hours, "12h30m" for minutes, decimals of
/// seconds for steps under a second.
std::string format_right_ascension(double ra_deg, double step_deg);

/// A declination (or other latitude) in degrees as signed degrees, arcminutes and arcseconds
/// ("+45°30′15″", "-00°30′"), to the resolution of `step_deg`.
std::string format_declination(double dec_deg, double step_deg);

/// The tick spacing in degrees for about `target` ticks over `span_deg`: whole steps of time
/// (0.01 s up to 6 h) for right ascension, of arc (0.01″ up to 30°) for declination.
double sky_tick_step(double span_deg, int target, bool right_ascension);

}  // namespace bkt::clean
