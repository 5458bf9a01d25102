// What each FITS axis of an input holds, judged from its CTYPE, and the layouts bkt-clean takes:
// the image on axes 1 and 2 (RA/Dec or another celestial pair, or plain linear axes), frequency,
// Stokes or other non-celestial axes on 3 and 4.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bkt::clean {

enum class axis_kind { sky_longitude, sky_latitude, linear, spectral, stokes, other };

/// The kind of an axis from its CTYPE ("RA---SIN", "DEC--SIN", "FREQ", "STOKES", "" ...); an empty
/// or missing CTYPE is linear (pixel) coordinates.
axis_kind classify_axis(std::string_view ctype);

/// Throws bkt::apps::app_error "NAME: unknown axis layout: ..." unless axes 1 and 2 are a
/// celestial pair (either order) or both linear, and no celestial axis lies beyond axis 2 with a
/// length above 1. `lengths` and `ctypes` hold NAXISn and CTYPEn for every axis.
void check_axis_layout(const std::string& name, const std::vector<std::int64_t>& lengths,
                       const std::vector<std::string>& ctypes);

}  // namespace bkt::clean
