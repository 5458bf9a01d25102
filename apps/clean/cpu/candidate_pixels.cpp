#include "cpu/candidate_pixels.hpp"

#include <cmath>
#include <string>

#include "bkt_apps/app_error.hpp"
#include "cpu/residual_rows.hpp"

namespace bkt::clean::cpu {

std::vector<std::uint8_t> candidate_pixels(const image& pixels, const clean_params& params) {
  const std::int64_t count = pixels.size();
  if (!params.mask.empty() && static_cast<std::int64_t>(params.mask.size()) != count)
    throw apps::app_error("mask: " + std::to_string(params.mask.size()) + " entries for an image of " +
                          std::to_string(pixels.width) + " x " + std::to_string(pixels.height) + " pixels");
  std::vector<std::uint8_t> candidates(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i) {
    const bool in_mask = params.mask.empty() || params.mask[i] == 1;
    candidates[i] = in_mask && !std::isnan(pixels.pixels[i]) ? 1 : 0;
  }
  return candidates;
}

peak_pixel find_peak(const std::vector<float>& values, const std::vector<std::uint8_t>& candidates) {
  const auto count = static_cast<std::int64_t>(values.size());
  const std::int32_t key = find_largest(values.data(), candidates.data(), count);
  if (key == no_candidate) return {};
  return {find_first_with_key(values.data(), candidates.data(), count, key), magnitude_of_key(key)};
}

}  // namespace bkt::clean::cpu
