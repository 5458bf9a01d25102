// Högbom's CLEAN (Högbom 1974) on the CPU, exactly as deconvolve.hpp states it, so that its
// components match clean_gpu's bit for bit.
//
// Each iteration subtracts the shifted PSF from every residual row it overlaps and, in the same
// pass, records each row's largest candidate |value| (as a magnitude key). Rows the PSF misses keep
// their record, so the next argmax scans one number per row and then one row for the first pixel
// of that key: the same pixel as a whole-image argmax with the smallest-index tie rule, because
// rows are searched in order and each row's search finds its first pixel of largest key.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "cpu/candidate_pixels.hpp"
#include "cpu/clean_cpu_steps.hpp"
#include "cpu/residual_rows.hpp"
#include "cpu/row_chunks.hpp"
#include "cpu/stop_rules.hpp"

namespace bkt::clean::cpu {
namespace {

// The residual image, which pixels are candidates, and each row's largest candidate key.
struct residual_rows {
  image& residual;
  const std::vector<std::uint8_t>& candidates;
  bool every_pixel;  // all candidates: the row loops then skip the mask (residual_rows.hpp)
  std::vector<std::int32_t> row_largest;

  const float* row(std::int64_t y) const { return residual.pixels.data() + y * residual.width; }
  float* row(std::int64_t y) { return residual.pixels.data() + y * residual.width; }
  /// The mask from pixel (x, y) on; null when every pixel is a candidate.
  const std::uint8_t* candidate_row(std::int64_t y, std::int64_t x = 0) const {
    return every_pixel ? nullptr : candidates.data() + y * residual.width + x;
  }
};

// The candidate of largest |value| (ties: smallest index).
peak_pixel find_peak(const residual_rows& rows) {
  std::int64_t peak_y = -1;
  std::int32_t peak_key = no_candidate;
  for (std::int64_t y = 0; y < static_cast<std::int64_t>(rows.row_largest.size()); ++y)
    if (rows.row_largest[y] > peak_key) {
      peak_key = rows.row_largest[y];
      peak_y = y;
    }
  if (peak_key == no_candidate) return {};
  const std::int64_t width = rows.residual.width;
  const std::int64_t peak_x = find_first_with_key(rows.row(peak_y), rows.candidate_row(peak_y), width, peak_key);
  return {peak_y * width + peak_x, magnitude_of_key(peak_key)};
}

// Subtracts flux times the PSF centred on (peak_x, peak_y) and refreshes the rows' records.
void subtract_psf(residual_rows& rows, const image& psf, std::int64_t peak_x, std::int64_t peak_y, float flux,
                  int workers) {
  const std::int64_t width = rows.residual.width;
  // The PSF pixel over residual pixel q is q - peak + centre; keep the q where it exists.
  const std::int64_t shift_x = psf_centre(psf.width) - peak_x;
  const std::int64_t shift_y = psf_centre(psf.height) - peak_y;
  const std::int64_t x_first = std::max<std::int64_t>(0, -shift_x);
  const std::int64_t x_end = std::min(width, psf.width - shift_x);
  const std::int64_t y_first = std::max<std::int64_t>(0, -shift_y);
  const std::int64_t y_end = std::min(rows.residual.height, psf.height - shift_y);
  for_row_chunks(y_first, y_end, width, workers, [&](std::int64_t first, std::int64_t end) {
    for (std::int64_t y = first; y < end; ++y) {
      float* const residual = rows.row(y);
      const float* const psf_row = psf.pixels.data() + (y + shift_y) * psf.width + (x_first + shift_x);
      const std::int32_t before = find_largest(residual, rows.candidate_row(y), x_first);
      const std::int32_t inside = subtract_and_find_largest(residual + x_first, psf_row, rows.candidate_row(y, x_first),
                                                            x_end - x_first, flux);
      const std::int32_t after = find_largest(residual + x_end, rows.candidate_row(y, x_end), width - x_end);
      rows.row_largest[y] = std::max({before, inside, after});
    }
  });
}

}  // namespace

clean_result hogbom_cpu(const image& dirty, const image& psf, const clean_params& params) {
  clean_result result;
  result.residual = dirty;
  result.model = image{dirty.width, dirty.height, std::vector<float>(dirty.pixels.size(), 0.0f)};
  const std::vector<std::uint8_t> candidates = candidate_pixels(dirty, params);
  const bool every_pixel = std::all_of(candidates.begin(), candidates.end(), [](std::uint8_t c) { return c == 1; });
  residual_rows rows{result.residual, candidates, every_pixel,
                     std::vector<std::int32_t>(static_cast<std::size_t>(dirty.height))};
  for (std::int64_t y = 0; y < dirty.height; ++y)
    rows.row_largest[y] = find_largest(rows.row(y), rows.candidate_row(y), dirty.width);

  const int workers = row_worker_count();
  const stop_rules rules = rules_of(params);
  const float gain = rules.gain;
  float first_peak = 0;
  for (;;) {
    const peak_pixel peak = find_peak(rows);
    result.peak_residual = peak.index < 0 ? 0 : peak.magnitude;
    const step_decision decision = decide_step(peak.index >= 0, peak.magnitude, result.iterations, first_peak, rules);
    if (decision != step_decision::take) {
      result.reason = reason_of(decision);
      break;
    }
    if (result.iterations == 0) first_peak = peak.magnitude;

    const std::int64_t peak_x = peak.index % dirty.width;
    const std::int64_t peak_y = peak.index / dirty.width;
    const float flux = gain * result.residual.pixels[peak.index];
    result.model.pixels[peak.index] += flux;
    result.components.push_back({peak_x, peak_y, flux});
    ++result.iterations;
    subtract_psf(rows, psf, peak_x, peak_y, flux, workers);
  }
  return result;
}

}  // namespace bkt::clean::cpu
