#include "cpu/clark_minor_cycle.hpp"

#include <algorithm>
#include <cmath>

#include "cpu/residual_rows.hpp"

namespace bkt::clean::cpu {

minor_cycle_pixels select_minor_cycle_pixels(const image& residual, const std::vector<std::uint8_t>& candidates,
                                             double cutoff, std::int64_t peak_index, std::int64_t max_count) {
  std::vector<std::int64_t> chosen;
  for (std::int64_t i = 0; i < residual.size(); ++i)
    if (candidates[i] == 1 && (std::fabs(residual.pixels[i]) > cutoff || i == peak_index)) chosen.push_back(i);
  if (static_cast<std::int64_t>(chosen.size()) > max_count) {
    const auto brighter = [&](std::int64_t a, std::int64_t b) {
      const std::int32_t key_a = magnitude_key(residual.pixels[a]);
      const std::int32_t key_b = magnitude_key(residual.pixels[b]);
      return key_a != key_b ? key_a > key_b : a < b;
    };
    std::nth_element(chosen.begin(), chosen.begin() + max_count, chosen.end(), brighter);
    chosen.resize(static_cast<std::size_t>(max_count));
    std::sort(chosen.begin(), chosen.end());
  }
  minor_cycle_pixels pixels;
  for (const std::int64_t i : chosen) {
    pixels.x.push_back(i % residual.width);
    pixels.y.push_back(i / residual.width);
    pixels.values.push_back(residual.pixels[i]);
  }
  return pixels;
}

std::int64_t run_minor_cycle(minor_cycle_pixels& pixels, const image& psf, float gain, double stop_at,
                             std::int64_t max_components, image& model, std::vector<component>& components) {
  const auto count = static_cast<std::int64_t>(pixels.values.size());
  const std::int64_t centre_x = psf_centre(psf.width);
  const std::int64_t centre_y = psf_centre(psf.height);
  const std::int64_t reach_left = std::min(centre_x, max_patch_half_width);
  const std::int64_t reach_right = std::min(psf.width - 1 - centre_x, max_patch_half_width);
  const std::int64_t reach_down = std::min(centre_y, max_patch_half_width);
  const std::int64_t reach_up = std::min(psf.height - 1 - centre_y, max_patch_half_width);

  std::int64_t taken = 0;
  while (taken < max_components) {
    const std::int32_t key = find_largest(pixels.values.data(), nullptr, count);
    if (key == no_candidate || magnitude_of_key(key) <= stop_at) break;
    const std::int64_t peak = find_first_with_key(pixels.values.data(), nullptr, count, key);
    const std::int64_t peak_x = pixels.x[peak];
    const std::int64_t peak_y = pixels.y[peak];
    const float flux = gain * pixels.values[peak];
    model.at(peak_x, peak_y) += flux;
    components.push_back({peak_x, peak_y, flux});
    ++taken;

    // The pixels are in index order, so the rows the patch covers are one contiguous run.
    const auto first = std::lower_bound(pixels.y.begin(), pixels.y.end(), peak_y - reach_down) - pixels.y.begin();
    const auto end = std::upper_bound(pixels.y.begin(), pixels.y.end(), peak_y + reach_up) - pixels.y.begin();
    for (std::int64_t i = first; i < end; ++i) {
      const std::int64_t dx = pixels.x[i] - peak_x;
      if (dx < -reach_left || dx > reach_right) continue;
      const std::int64_t dy = pixels.y[i] - peak_y;
      pixels.values[i] = std::fmaf(-flux, psf.at(centre_x + dx, centre_y + dy), pixels.values[i]);
    }
  }
  return taken;
}

}  // namespace bkt::clean::cpu
