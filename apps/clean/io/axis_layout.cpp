#include "axis_layout.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "bkt_apps/app_error.hpp"

namespace bkt::clean {
namespace {

std::string upper(std::string_view text) {
  std::string result(text);
  for (char& c : result) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return result;
}

/// The CTYPE's coordinate type: the part before the projection code ("RA" of "RA---SIN").
std::string coordinate_type(std::string_view ctype) {
  std::string type = upper(ctype.substr(0, ctype.find('-')));
  while (!type.empty() && type.back() == ' ') type.pop_back();
  return type;
}

bool one_of(const std::string& type, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), type) != names.end();
}

std::string describe(std::size_t axis, const std::vector<std::int64_t>& lengths, const std::vector<std::string>& ctypes) {
  // CTYPE comes from the file: quoted and escaped, so that no byte of it reaches the terminal raw.
  const std::string ctype = ctypes[axis].empty() ? "without CTYPE" : bkt::apps::quoted_excerpt(ctypes[axis]);
  return "axis " + std::to_string(axis + 1) + " is " + ctype + " (NAXIS" + std::to_string(axis + 1) + " = " +
         std::to_string(lengths[axis]) + ")";
}

}  // namespace

axis_kind classify_axis(std::string_view ctype) {
  const std::string type = coordinate_type(ctype);
  if (type.empty() || one_of(type, {"LINEAR", "X", "Y", "PIXEL", "OFFSET"})) return axis_kind::linear;
  // Celestial pairs of the FITS WCS papers: equatorial, galactic, ecliptic, supergalactic, and the
  // xLON/xLAT and xyLN/xyLT forms of other systems.
  if (type == "RA" || (type.size() == 4 && type.substr(1) == "LON") || (type.size() == 4 && type.substr(2) == "LN"))
    return axis_kind::sky_longitude;
  if (type == "DEC" || (type.size() == 4 && type.substr(1) == "LAT") || (type.size() == 4 && type.substr(2) == "LT"))
    return axis_kind::sky_latitude;
  if (one_of(type, {"FREQ", "ENER", "WAVN", "VRAD", "WAVE", "VOPT", "ZOPT", "AWAV", "VELO", "BETA", "FELO", "VELOCITY"}))
    return axis_kind::spectral;
  if (type == "STOKES") return axis_kind::stokes;
  return axis_kind::other;
}

void check_axis_layout(const std::string& name, const std::vector<std::int64_t>& lengths,
                       const std::vector<std::string>& ctypes) {
  const auto fail = [&](const std::string& why) {
    throw bkt::apps::app_error(name + ": unknown axis layout: " + why +
                               "; bkt-clean needs the image on axes 1 and 2 (RA/Dec or linear) and "
                               "frequency or Stokes on axes 3 and 4");
  };
  const axis_kind first = classify_axis(ctypes[0]), second = classify_axis(ctypes[1]);
  const auto is_sky = [](axis_kind kind) { return kind == axis_kind::sky_longitude || kind == axis_kind::sky_latitude; };
  for (std::size_t axis = 0; axis < 2; ++axis) {
    const axis_kind kind = axis == 0 ? first : second;
    if (!is_sky(kind) && kind != axis_kind::linear) fail(describe(axis, lengths, ctypes));
  }
  if (is_sky(first) != is_sky(second) || (is_sky(first) && first == second))
    fail(describe(0, lengths, ctypes) + " and " + describe(1, lengths, ctypes) + ": not a celestial pair");
  for (std::size_t axis = 2; axis < lengths.size(); ++axis)
    if (lengths[axis] > 1 && is_sky(classify_axis(ctypes[axis]))) fail(describe(axis, lengths, ctypes));
}

}  // namespace bkt::clean
