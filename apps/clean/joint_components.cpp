#include "joint_components.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "joint/spectral_fit.hpp"

namespace bkt::clean {
namespace {

/// The side of a pixel in arcsec: the square root of its area on the sky (pixels are square in
/// radio images; this is their geometric mean when they are not).
std::optional<double> pixel_arcsec(const sky_wcs& wcs) {
  const std::optional<pixel_scale> scale = wcs.scale();
  if (!scale) return std::nullopt;
  return std::sqrt(std::fabs(scale->east_x * scale->north_y - scale->east_y * scale->north_x)) * 3600;
}

}  // namespace

std::vector<scaled_component> merge_components(const joint_result& result, const channel_set& channels,
                                               int spectral_terms, const component_placement& placement,
                                               const sky_wcs& wcs) {
  const auto count = static_cast<std::size_t>(channels.channels());
  // (scale, y, x) -> the summed fluxes per channel; the key's order is the scanning order ties keep.
  std::map<std::tuple<int, std::int64_t, std::int64_t>, std::vector<double>> merged;
  for (std::size_t i = 0; i < result.components.size(); ++i) {
    const joint_component& component = result.components[i];
    std::vector<double>& fluxes = merged[{component.scale, component.y, component.x}];
    fluxes.resize(count, 0.0);
    for (std::size_t c = 0; c < count; ++c) fluxes[c] += result.fluxes[i * count + c];
  }
  const std::vector<double> abscissae = spectral_abscissae(channels);
  const bool fitted = spectral_terms > 0 && !abscissae.empty();
  const spectral_fit_setup setup{spectral_terms, static_cast<int>(count), abscissae.data(), channels.weights.data()};
  double weight_sum = 0;
  for (double weight : channels.weights) weight_sum += weight;
  const std::optional<double> reference = reference_frequency(channels);
  const std::optional<double> arcsec = pixel_arcsec(wcs);

  std::vector<scaled_component> list;
  for (const auto& [key, fluxes] : merged) {
    if (std::all_of(fluxes.begin(), fluxes.end(), [](double flux) { return flux == 0; })) continue;
    const auto [scale, y, x] = key;
    scaled_component component;
    component.plane = placement.plane;
    component.x = x;
    component.y = y;
    component.scale_index = scale;
    component.scale_pixels = result.scales[static_cast<std::size_t>(scale)];
    component.sky = wcs.pixel_to_sky(static_cast<double>(x), static_cast<double>(y), placement.plane_position);
    component.frequency_hz = reference;
    if (component.scale_pixels > 0 && arcsec) component.fwhm_arcsec = scale_fwhm_pixels(component.scale_pixels) * *arcsec;
    if (fitted) {
      // The fit is linear in the fluxes, so the merged component's terms are those of its summed
      // fluxes, which are the sums of its parts' fitted fluxes.
      const std::vector<float> values(fluxes.begin(), fluxes.end());
      double terms[max_spectral_terms] = {};
      fit_spectral_terms(setup, values.data(), terms);
      component.flux = terms[0];
      component.spectral_terms.assign(terms + 1, terms + std::min<int>(spectral_terms, static_cast<int>(count)));
    } else {
      double sum = 0;
      for (std::size_t c = 0; c < count; ++c) sum += channels.weights[c] * fluxes[c];
      component.flux = sum / weight_sum;
    }
    component.channel_fluxes.assign(placement.input_channel_count, std::nullopt);
    for (std::size_t c = 0; c < count; ++c) component.channel_fluxes[placement.input_channels[c]] = fluxes[c];
    list.push_back(std::move(component));
  }
  // The map gave (scale, y, x) order; a stable sort keeps it among equal |flux|.
  std::stable_sort(list.begin(), list.end(), [](const scaled_component& a, const scaled_component& b) {
    if (a.scale_index != b.scale_index) return a.scale_index < b.scale_index;
    return std::fabs(a.flux) > std::fabs(b.flux);
  });
  return list;
}

}  // namespace bkt::clean
