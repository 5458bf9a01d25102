#include "sky_axes.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <optional>

#include "bkt_apps/plot/ticks.hpp"
#include "fits_header.hpp"

namespace bkt::clean {
namespace plot = bkt::apps::plot;
namespace {

constexpr int edge_samples = 257;  // points walked along each edge; ticks are interpolated between them

// Tick spacings: seconds of time for right ascension, seconds of arc for declination, the
// steps that sexagesimal labels read well at.
constexpr std::array<double, 26> time_steps = {0.01, 0.02, 0.05, 0.1,  0.2,  0.5,   1,     2,     5,
                                               10,   15,   20,   30,   60,   120,   300,   600,   900,
                                               1200, 1800, 3600, 7200, 10800, 14400, 21600, 43200};
constexpr std::array<double, 27> arc_steps = {0.01, 0.02, 0.05, 0.1,  0.2,   0.5,   1,     2,     5,
                                              10,   15,   20,   30,   60,    120,   300,   600,   900,
                                              1200, 1800, 3600, 7200, 18000, 36000, 54000, 72000, 108000};

/// One edge of the image, walked from its start: a coordinate of each sample (nullopt where the
/// projection has no solution).
struct edge_walk {
  std::vector<std::optional<double>> longitude, latitude;
};

edge_walk walk_edge(const sky_wcs& wcs, double x0, double y0, double x1, double y1,
                    const std::vector<std::int64_t>& plane_position) {
  edge_walk walk;
  std::optional<double> previous;
  for (int i = 0; i < edge_samples; ++i) {
    const double f = i / double(edge_samples - 1);
    const auto sky = wcs.pixel_to_sky(x0 + f * (x1 - x0), y0 + f * (y1 - y0), plane_position);
    if (!sky) {
      walk.longitude.emplace_back();
      walk.latitude.emplace_back();
      continue;
    }
    double longitude = sky->ra_deg;
    // Unwrapped, so that crossing 0h reads as a step, not a jump of 360 degrees.
    if (previous) longitude += 360 * std::round((*previous - longitude) / 360);
    previous = longitude;
    walk.longitude.push_back(longitude);
    walk.latitude.push_back(sky->dec_deg);
  }
  return walk;
}

/// How far a coordinate moves along an edge, in degrees on the sky.
double travel(const std::vector<std::optional<double>>& values, double scale) {
  double lo = INFINITY, hi = -INFINITY;
  for (const auto& value : values)
    if (value) {
      lo = std::min(lo, *value);
      hi = std::max(hi, *value);
    }
  return hi > lo ? (hi - lo) * scale : 0;
}

/// Where multiples of `step` cross the walked values, as fractions along the edge.
template <class Label>
std::vector<plot::edge_tick> crossings(const std::vector<std::optional<double>>& values, double step, Label label) {
  std::vector<plot::edge_tick> ticks;
  for (std::size_t i = 0; i + 1 < values.size(); ++i) {
    if (!values[i] || !values[i + 1] || *values[i] == *values[i + 1]) continue;
    const double v0 = *values[i], v1 = *values[i + 1];
    for (double k = std::ceil(std::min(v0, v1) / step); k * step <= std::max(v0, v1); k += 1) {
      const double value = k * step;
      // Half-open on the segment's far end, so that a value at a sample counts once.
      if (value == v1) continue;
      const double fraction = (i + (value - v0) / (v1 - v0)) / double(values.size() - 1);
      ticks.push_back({fraction, label(value)});
    }
  }
  std::sort(ticks.begin(), ticks.end(), [](const auto& a, const auto& b) { return a.fraction < b.fraction; });
  return ticks;
}

/// A 1-2-5 step in degrees and a label with the decimals it needs, for longitudes other than RA.
double degree_step(double span, int target) {
  const auto ticks = plot::linear_ticks(0, span, target);
  return ticks.size() > 1 ? ticks[1].value - ticks[0].value : span;
}
std::string format_degrees(double value, double step) {
  const int decimals = std::clamp(-static_cast<int>(std::floor(std::log10(step) + 1e-9)), 0, 6);
  char text[48];
  std::snprintf(text, sizeof text, "%.*f°", decimals, value == 0.0 ? 0.0 : value);
  return text;
}

/// Splits a non-negative count of `resolution`-sized units into sexagesimal fields.
struct sexagesimal {
  long long major = 0, minutes = 0;
  double seconds = 0;
};
sexagesimal split(double value_seconds, double resolution) {
  const long long units = std::llround(value_seconds / resolution);
  const double total = static_cast<double>(units) * resolution;
  sexagesimal parts;
  parts.major = static_cast<long long>(std::floor(total / 3600 + 1e-9));
  parts.minutes = static_cast<long long>(std::floor((total - 3600.0 * static_cast<double>(parts.major)) / 60 + 1e-9));
  parts.seconds = std::max(0.0, total - 3600.0 * static_cast<double>(parts.major) - 60.0 * static_cast<double>(parts.minutes));
  return parts;
}

/// The label resolution for a step in seconds: the whole unit the step is made of, or the
/// decimals of a second that it needs.
double resolution_of(double step_seconds, int& decimals) {
  decimals = 0;
  if (step_seconds >= 3600 - 1e-6) return 3600;
  if (step_seconds >= 60 - 1e-6) return 60;
  if (step_seconds >= 1 - 1e-9) return 1;
  decimals = std::clamp(static_cast<int>(std::ceil(-std::log10(step_seconds) - 1e-9)), 1, 6);
  return std::pow(10.0, -decimals);
}

std::string format_seconds(double seconds, int decimals) {
  char text[32];
  if (decimals == 0) std::snprintf(text, sizeof text, "%02.0f", seconds);
  else std::snprintf(text, sizeof text, "%0*.*f", decimals + 3, decimals, seconds);
  return text;
}

}  // namespace

double sky_tick_step(double span_deg, int target, bool right_ascension) {
  const double unit = right_ascension ? 15.0 / 3600 : 1.0 / 3600;  // degrees per second of time or arc
  const double wanted = span_deg / std::max(target, 1) / unit;
  if (right_ascension) {
    for (double step : time_steps)
      if (step >= wanted) return step * unit;
    return time_steps.back() * unit;
  }
  for (double step : arc_steps)
    if (step >= wanted) return step * unit;
  return arc_steps.back() * unit;
}

std::string format_right_ascension(double ra_deg, double step_deg) {
  double hours = std::fmod(ra_deg / 15, 24);
  if (hours < 0) hours += 24;
  int decimals = 0;
  const double resolution = resolution_of(step_deg * 240, decimals);  // 240 seconds of time per degree
  sexagesimal parts = split(hours * 3600, resolution);
  parts.major %= 24;
  char text[64];
  if (resolution >= 3600) std::snprintf(text, sizeof text, "%02lldh", parts.major);
  else if (resolution >= 60) std::snprintf(text, sizeof text, "%02lldh%02lldm", parts.major, parts.minutes);
  else
    std::snprintf(text, sizeof text, "%02lldh%02lldm%ss", parts.major, parts.minutes,
                  format_seconds(parts.seconds, decimals).c_str());
  return text;
}

std::string format_declination(double dec_deg, double step_deg) {
  int decimals = 0;
  const double resolution = resolution_of(step_deg * 3600, decimals);
  const sexagesimal parts = split(std::fabs(dec_deg) * 3600, resolution);
  const bool zero = parts.major == 0 && parts.minutes == 0 && parts.seconds == 0;
  const char* sign = dec_deg < 0 && !zero ? "-" : "+";
  char text[64];
  if (resolution >= 3600) std::snprintf(text, sizeof text, "%s%02lld°", sign, parts.major);
  else if (resolution >= 60) std::snprintf(text, sizeof text, "%s%02lld°%02lld′", sign, parts.major, parts.minutes);
  else
    std::snprintf(text, sizeof text, "%s%02lld°%02lld′%s″", sign, parts.major, parts.minutes,
                  format_seconds(parts.seconds, decimals).c_str());
  return text;
}

plot::frame_axes sky_axes(const sky_wcs& wcs, const std::string& header, std::int64_t width, std::int64_t height,
                          const std::vector<std::int64_t>& plane_position) {
  plot::frame_axes axes;
  const double right = static_cast<double>(width) - 0.5, top = static_cast<double>(height) - 0.5;
  if (!wcs.has_celestial()) {
    // Pixel indices from 0, as the component list gives them; a tick at the pixel's centre.
    const auto pixel_ticks = [](std::int64_t extent) {
      std::vector<plot::edge_tick> ticks;
      for (const plot::tick& mark : plot::linear_ticks(0, static_cast<double>(extent - 1), 5))
        ticks.push_back({(mark.value + 0.5) / static_cast<double>(extent), mark.label});
      return ticks;
    };
    axes.bottom = pixel_ticks(width);
    axes.left = pixel_ticks(height);
    axes.bottom_title = "x (pixel)";
    axes.left_title = "y (pixel)";
    return axes;
  }
  const auto ctype1 = header_value(header, "CTYPE1").value_or(""), ctype2 = header_value(header, "CTYPE2").value_or("");
  const bool equatorial = ctype1.rfind("RA", 0) == 0 || ctype2.rfind("RA", 0) == 0;
  const edge_walk bottom = walk_edge(wcs, -0.5, -0.5, right, -0.5, plane_position);
  const edge_walk left = walk_edge(wcs, -0.5, -0.5, -0.5, top, plane_position);
  // Longitude degrees shrink by cos(latitude) on the sky.
  double latitude = 0;
  for (const auto& value : bottom.latitude)
    if (value) latitude = *value;
  const double shrink = std::cos(latitude * M_PI / 180);
  const bool longitude_on_bottom = travel(bottom.longitude, shrink) >= travel(bottom.latitude, 1);

  const auto longitude_ticks = [&](const std::vector<std::optional<double>>& values, int target) {
    const double span = travel(values, 1);
    if (!(span > 0)) return std::vector<plot::edge_tick>{};
    const double step = equatorial ? sky_tick_step(span, target, true) : degree_step(span, target);
    return crossings(values, step, [&](double value) {
      if (equatorial) return format_right_ascension(value, step);
      const double wrapped = std::fmod(std::fmod(value, 360) + 360, 360);
      return format_degrees(wrapped, step);
    });
  };
  const auto latitude_ticks = [&](const std::vector<std::optional<double>>& values, int target) {
    const double span = travel(values, 1);
    if (!(span > 0)) return std::vector<plot::edge_tick>{};
    const double step = equatorial ? sky_tick_step(span, target, false) : degree_step(span, target);
    return crossings(values, step, [&](double value) {
      return equatorial ? format_declination(value, step) : format_degrees(value, step);
    });
  };
  const std::string frame = header_value(header, "RADESYS").value_or("");
  const std::string suffix = equatorial && !frame.empty() ? " (" + frame + ")" : "";
  // Other systems are named by their CTYPE prefix ("GLON", "ELAT").
  const auto prefix = [](const std::string& ctype) { return ctype.substr(0, ctype.find('-')); };
  const bool first_is_longitude = prefix(ctype1).find("LON") != std::string::npos || prefix(ctype1).find("LN") != std::string::npos;
  const std::string longitude_name = prefix(first_is_longitude ? ctype1 : ctype2);
  const std::string latitude_name = prefix(first_is_longitude ? ctype2 : ctype1);
  const std::string longitude_title = equatorial ? "Right ascension" + suffix : longitude_name;
  const std::string latitude_title = equatorial ? "Declination" + suffix : latitude_name;
  if (longitude_on_bottom) {
    axes.bottom = longitude_ticks(bottom.longitude, 4);
    axes.left = latitude_ticks(left.latitude, 5);
    axes.bottom_title = longitude_title;
    axes.left_title = latitude_title;
  } else {
    axes.bottom = latitude_ticks(bottom.latitude, 4);
    axes.left = longitude_ticks(left.longitude, 5);
    axes.bottom_title = latitude_title;
    axes.left_title = longitude_title;
  }
  return axes;
}

}  // namespace bkt::clean
