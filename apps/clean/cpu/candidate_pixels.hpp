// Which pixels may take a clean component, and the largest |value| among them.
#pragma once

#include <cstdint>
#include <vector>

#include "image.hpp"

namespace bkt::clean::cpu {

/// 1 for each pixel of `pixels` that is not NaN and whose params.mask entry (if there is a mask)
/// is 1, else 0. Throws bkt::apps::app_error when the mask's size is not the image's.
std::vector<std::uint8_t> candidate_pixels(const image& pixels, const clean_params& params);

/// A pixel and its |value|; index -1 when there is none.
struct peak_pixel {
  std::int64_t index = -1;
  float magnitude = 0;
};

/// The candidate with the largest |value|; ties go to the smallest index (deconvolve.hpp).
peak_pixel find_peak(const std::vector<float>& values, const std::vector<std::uint8_t>& candidates);

}  // namespace bkt::clean::cpu
