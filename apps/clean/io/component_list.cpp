#include "component_list.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace bkt::clean {
namespace {

/// The shortest text that reads back as the same value.
template <class T>
std::string shortest(T value) {
  char buffer[64];
  const auto [end, code] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, end);
}

/// A frequency as WSClean writes it: whole hertz in plain digits ("1350000000", where the
/// shortest form would be "1.35e+09"), any other value in its shortest form.
std::string frequency_text(double hertz) {
  if (hertz == std::floor(hertz) && std::fabs(hertz) < 1e15) {
    char text[32];
    std::snprintf(text, sizeof text, "%.0f", hertz);
    return text;
  }
  return shortest(hertz);
}

/// Whole units, minutes, seconds with three decimals, from a non-negative amount; rounding to
/// milliseconds first so that 59.9996 s carries into the next minute instead of printing 60.000.
struct sexagesimal {
  long long units, minutes, seconds, milliseconds;
};
sexagesimal split(double amount) {
  const auto total = static_cast<long long>(std::llround(amount * 3600.0 * 1000.0));
  return {total / 3'600'000, total / 60'000 % 60, total / 1000 % 60, total % 1000};
}

/// The double closest to the float's shortest decimal text, so that JSON shows 0.00748, not
/// 0.007480000052601099.
double decimal_value(float value) {
  const std::string text = shortest(value);
  double result = 0;
  std::from_chars(text.data(), text.data() + text.size(), result);
  return result;
}

std::string source_list_header(std::optional<double> default_frequency_hz) {
  return "Format = Name, Type, Ra, Dec, I, SpectralIndex, LogarithmicSI, ReferenceFrequency='" +
         (default_frequency_hz ? frequency_text(*default_frequency_hz) : std::string("0")) +
         "', MajorAxis, MinorAxis, Orientation\n";
}

/// The comment that explains empty Ra and Dec fields, when any component lacks a sky position.
template <class Component>
std::string missing_sky_note(const std::vector<Component>& components) {
  const bool any_without_sky = std::any_of(components.begin(), components.end(), [](const Component& c) { return !c.sky; });
  return any_without_sky ? "# No celestial WCS in the image: Ra and Dec are empty; pixel positions are in the components JSON.\n"
                         : "";
}

/// WSClean's component name s<scale>c<index>, built by appends (GCC 12 warns falsely of an overlap
/// on "s" + std::string).
std::string component_name(std::int64_t scale, std::int64_t index) {
  std::string name = "s";
  name += std::to_string(scale);
  name += 'c';
  name += std::to_string(index);
  return name;
}

/// One line: the name and type, the position (empty without one), then the fields from I on, as
/// written ("I,SpectralIndex,LogarithmicSI,ReferenceFrequency,MajorAxis,MinorAxis,Orientation").
std::string source_line(const std::string& name, const char* type, const std::optional<sky_position>& sky,
                        const std::string& rest) {
  std::string text = name + "," + type + ",";
  if (sky) text += format_ra(sky->ra_deg) + "," + format_dec(sky->dec_deg);
  else text += ",";
  return text + "," + rest + "\n";
}

}  // namespace

std::vector<sky_component> model_components(const image& model, std::int64_t plane,
                                            const std::vector<std::int64_t>& plane_position, const sky_wcs& wcs) {
  std::vector<sky_component> components;
  const std::optional<double> frequency = wcs.frequency_hz(plane_position);
  for (std::int64_t y = 0; y < model.height; ++y)
    for (std::int64_t x = 0; x < model.width; ++x) {
      const float flux = model.at(x, y);
      if (flux == 0 || std::isnan(flux)) continue;
      components.push_back({plane, x, y, flux, wcs.pixel_to_sky(static_cast<double>(x), static_cast<double>(y), plane_position),
                            frequency});
    }
  // Scanning order is (y, x) ascending, so a stable sort leaves ties in that order.
  std::stable_sort(components.begin(), components.end(),
                   [](const sky_component& a, const sky_component& b) { return std::fabs(a.flux) > std::fabs(b.flux); });
  return components;
}

std::string format_ra(double ra_deg) {
  double hours = std::fmod(ra_deg / 15.0, 24.0);
  if (hours < 0) hours += 24;
  sexagesimal parts = split(hours);
  parts.units %= 24;  // 23:59:59.9996 rounds to 00:00:00.000
  char text[32];
  std::snprintf(text, sizeof text, "%02lld:%02lld:%02lld.%03lld", parts.units, parts.minutes, parts.seconds,
                parts.milliseconds);
  return text;
}

std::string format_dec(double dec_deg) {
  const sexagesimal parts = split(std::fabs(dec_deg));
  char text[32];
  std::snprintf(text, sizeof text, "%c%02lld.%02lld.%02lld.%03lld", dec_deg < 0 ? '-' : '+', parts.units,
                parts.minutes, parts.seconds, parts.milliseconds);
  return text;
}

std::string wsclean_source_list(const std::vector<sky_component>& components, std::optional<double> default_frequency_hz) {
  std::string text = source_list_header(default_frequency_hz) + missing_sky_note(components);
  for (std::size_t i = 0; i < components.size(); ++i) {
    const sky_component& component = components[i];
    // Flat spectrum ([] spectral terms, linear SI), point source: no axes or orientation.
    text += source_line(component_name(static_cast<std::int64_t>(i), 0), "POINT", component.sky,
                        shortest(component.flux) + ",[],false," +
                            (component.frequency_hz ? frequency_text(*component.frequency_hz) : std::string()) + ",,,");
  }
  return text;
}

std::string wsclean_source_list(const std::vector<scaled_component>& components, std::optional<double> default_frequency_hz) {
  std::string text = source_list_header(default_frequency_hz) + missing_sky_note(components);
  std::vector<std::int64_t> counts;  // components named so far, per scale
  for (const scaled_component& component : components) {
    const auto scale = static_cast<std::size_t>(component.scale_index);
    if (counts.size() <= scale) counts.resize(scale + 1, 0);
    const std::string name = component_name(static_cast<std::int64_t>(scale), counts[scale]++);
    std::string terms;
    for (double term : component.spectral_terms) {
      if (!terms.empty()) terms += ',';
      terms += shortest(term);
    }
    const std::string frequency = component.frequency_hz ? frequency_text(*component.frequency_hz) : std::string();
    const std::string spectrum = shortest(component.flux) + ",[" + terms + "],false," + frequency + ",";
    if (component.fwhm_arcsec) {
      const std::string axis = shortest(*component.fwhm_arcsec);
      text += source_line(name, "GAUSSIAN", component.sky, spectrum + axis + "," + axis + ",0");
    } else {
      text += source_line(name, "POINT", component.sky, spectrum + ",,");
    }
  }
  return text;
}

nlohmann::json components_json(const std::vector<sky_component>& components) {
  nlohmann::json list = nlohmann::json::array();
  for (const sky_component& component : components) {
    nlohmann::json entry = {{"plane", component.plane}, {"x", component.x}, {"y", component.y}};
    entry["ra_deg"] = component.sky ? nlohmann::json(component.sky->ra_deg) : nlohmann::json(nullptr);
    entry["dec_deg"] = component.sky ? nlohmann::json(component.sky->dec_deg) : nlohmann::json(nullptr);
    entry["flux"] = decimal_value(component.flux);
    list.push_back(std::move(entry));
  }
  return list;
}

nlohmann::json components_json(const std::vector<scaled_component>& components, bool fitted) {
  nlohmann::json list = nlohmann::json::array();
  for (const scaled_component& component : components) {
    nlohmann::json entry = {{"plane", component.plane}, {"x", component.x}, {"y", component.y},
                            {"scale", component.scale_pixels}};
    entry["ra_deg"] = component.sky ? nlohmann::json(component.sky->ra_deg) : nlohmann::json(nullptr);
    entry["dec_deg"] = component.sky ? nlohmann::json(component.sky->dec_deg) : nlohmann::json(nullptr);
    entry["flux"] = component.flux;
    nlohmann::json fluxes = nlohmann::json::array();
    for (const std::optional<double>& flux : component.channel_fluxes)
      fluxes.push_back(flux ? nlohmann::json(*flux) : nlohmann::json(nullptr));
    entry["channel_fluxes"] = std::move(fluxes);
    if (fitted) {
      nlohmann::json terms = nlohmann::json::array({component.flux});
      for (double term : component.spectral_terms) terms.push_back(term);
      entry["spectral_terms"] = std::move(terms);
    }
    list.push_back(std::move(entry));
  }
  return list;
}

}  // namespace bkt::clean
