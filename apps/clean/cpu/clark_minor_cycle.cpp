#include "cpu/clark_minor_cycle.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <utility>

#include "cpu/residual_rows.hpp"
#include "cpu/row_chunks.hpp"

namespace bkt::clean::cpu {
namespace {

/// The offsets the patch covers: dx in [-left, right], dy in [-down, up] (within
/// max_patch_half_width of the centre and inside the PSF).
struct patch_reach {
  std::int64_t centre_x, centre_y;
  std::int64_t left, right, down, up;

  explicit patch_reach(const image& psf)
      : centre_x(psf_centre(psf.width)),
        centre_y(psf_centre(psf.height)),
        left(std::min(centre_x, max_patch_half_width)),
        right(std::min(psf.width - 1 - centre_x, max_patch_half_width)),
        down(std::min(centre_y, max_patch_half_width)),
        up(std::min(psf.height - 1 - centre_y, max_patch_half_width)) {}

  bool covers(std::int64_t dx, std::int64_t dy) const { return dx >= -left && dx <= right && dy >= -down && dy <= up; }
};

/// The run of `pixels` (in index order, so sorted by y) whose rows lie in [low_y, high_y].
std::pair<std::int64_t, std::int64_t> rows_between(const minor_cycle_pixels& pixels, std::int64_t low_y,
                                                   std::int64_t high_y) {
  const auto first = std::lower_bound(pixels.y.begin(), pixels.y.end(), low_y) - pixels.y.begin();
  const auto end = std::upper_bound(pixels.y.begin(), pixels.y.end(), high_y) - pixels.y.begin();
  return {first, end};
}

/// The state of one minor cycle across its batches.
struct minor_cycle_state {
  std::vector<double> batch_flux;  // flux added at each pixel in this batch
  double batch_error = 0;          // E of this batch
  double earlier_error = 0;        // E of the cycle's earlier batches
  std::int64_t taken = 0;
};

/// One batch: Högbom with the patch until a stop rule or the batch's error budget ends it; true
/// when the budget did (the next batch should run once the pixels are corrected).
bool run_batch(minor_cycle_pixels& pixels, const image& psf, const patch_reach& patch, const minor_cycle_rules& rules,
               minor_cycle_state& state, image& model, std::vector<component>& components) {
  const auto count = static_cast<std::int64_t>(pixels.values.size());
  std::fill(state.batch_flux.begin(), state.batch_flux.end(), 0.0);
  state.batch_error = 0;
  for (std::int64_t in_batch = 0;; ++in_batch) {
    const std::int32_t key = find_largest(pixels.values.data(), nullptr, count);
    if (key == no_candidate) return false;
    const double magnitude = magnitude_of_key(key);
    const double square = magnitude * magnitude;
    // In the order of gpu/clark_minor.cu: level, the cycle's budget, the batch's, the count.
    if (state.taken > 0 && magnitude <= rules.level) return false;
    if (state.taken > 0 && rules.cycle_error_scale * (state.earlier_error + state.batch_error) >= square) return false;
    if (in_batch > 0 && rules.batch_error_scale * state.batch_error >= square) return true;
    if (state.taken >= rules.max_components) return false;

    const std::int64_t peak = find_first_with_key(pixels.values.data(), nullptr, count, key);
    const std::int64_t peak_x = pixels.x[peak];
    const std::int64_t peak_y = pixels.y[peak];
    const float flux = rules.gain * pixels.values[peak];
    model.at(peak_x, peak_y) += flux;
    components.push_back({peak_x, peak_y, flux});
    ++state.taken;
    const double before = state.batch_flux[peak];
    state.batch_flux[peak] = before + flux;
    state.batch_error += flux * (2 * before + flux);  // (before + flux)^2 - before^2

    const auto [first, end] = rows_between(pixels, peak_y - patch.down, peak_y + patch.up);
    for (std::int64_t i = first; i < end; ++i) {
      const std::int64_t dx = pixels.x[i] - peak_x;
      if (dx < -patch.left || dx > patch.right) continue;
      const std::int64_t dy = pixels.y[i] - peak_y;
      pixels.values[i] = std::fmaf(-flux, psf.at(patch.centre_x + dx, patch.centre_y + dy), pixels.values[i]);
    }
  }
}

/// values[i] = fmaf(-flux, psf[offset + x[i]], values[i]) for i < count. Built for AVX2+FMA and for the
/// baseline, picked when the program loads, as residual_rows.cpp does (the same bits either way:
/// fmaf is exactly rounded; without FMA it is a libm call).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
__attribute__((target_clones("arch=x86-64-v3", "default"), optimize("tree-vectorize", "vect-cost-model=dynamic")))
#endif
void subtract_gathered(float* values, const std::int64_t* x, std::int64_t count, const float* psf, std::int64_t offset,
                       float flux) {
  for (std::int64_t i = 0; i < count; ++i) values[i] = std::fmaf(-flux, psf[offset + x[i]], values[i]);
}

}  // namespace

minor_cycle_pixels select_minor_cycle_pixels(const image& residual, const std::vector<std::uint8_t>& candidates,
                                             double cutoff, std::int64_t peak_index, std::int64_t max_count) {
  std::vector<std::int64_t> chosen;
  for (std::int64_t i = 0; i < residual.size(); ++i)
    if (candidates[i] == 1 && (std::fabs(residual.pixels[i]) > cutoff || i == peak_index)) chosen.push_back(i);
  minor_cycle_pixels pixels;
  if (static_cast<std::int64_t>(chosen.size()) > max_count) {
    const auto brighter = [&](std::int64_t a, std::int64_t b) {
      const std::int32_t key_a = magnitude_key(residual.pixels[a]);
      const std::int32_t key_b = magnitude_key(residual.pixels[b]);
      return key_a != key_b ? key_a > key_b : a < b;
    };
    std::nth_element(chosen.begin(), chosen.begin() + max_count, chosen.end(), brighter);
    // nth_element leaves at max_count the brightest of those after it: the largest left out.
    pixels.capped = true;
    pixels.largest_left_out = std::fabs(residual.pixels[chosen[static_cast<std::size_t>(max_count)]]);
    chosen.resize(static_cast<std::size_t>(max_count));
    std::sort(chosen.begin(), chosen.end());
  }
  for (const std::int64_t i : chosen) {
    pixels.x.push_back(i % residual.width);
    pixels.y.push_back(i / residual.width);
    pixels.values.push_back(residual.pixels[i]);
  }
  return pixels;
}

double exterior_sidelobe(const image& psf, std::int64_t width, std::int64_t height) {
  const patch_reach patch(psf);
  float largest = 0;
  for (std::int64_t y = 0; y < psf.height; ++y) {
    const std::int64_t dy = y - patch.centre_y;
    if (std::abs(dy) >= height) continue;
    for (std::int64_t x = 0; x < psf.width; ++x) {
      const std::int64_t dx = x - patch.centre_x;
      if (std::abs(dx) < width && !patch.covers(dx, dy)) largest = std::max(largest, std::fabs(psf.at(x, y)));
    }
  }
  return largest;
}

void correct_beyond_patch(minor_cycle_pixels& pixels, const image& psf, std::span<const component> batch) {
  const patch_reach patch(psf);
  const auto count = static_cast<std::int64_t>(pixels.values.size());
  if (count == 0 || batch.empty()) return;
  // The rows the pixels lie in, each with its first pixel (the pixels are in index order).
  std::vector<std::int64_t> row_y, row_start;
  for (std::int64_t i = 0; i < count; ++i)
    if (i == 0 || pixels.y[i] != pixels.y[i - 1]) {
      row_y.push_back(pixels.y[i]);
      row_start.push_back(i);
    }
  row_start.push_back(count);
  const auto rows = static_cast<std::int64_t>(row_y.size());
  const std::int64_t* xs = pixels.x.data();
  float* values = pixels.values.data();
  // Each pixel takes the components in order, on whichever thread holds its row.
  const std::int64_t work_per_row = std::max<std::int64_t>(1, count / rows * static_cast<std::int64_t>(batch.size()));
  for_row_chunks(0, rows, work_per_row, row_worker_count(), [&](std::int64_t first_row, std::int64_t end_row) {
    for (const component& c : batch) {
      const auto flux = static_cast<float>(c.flux);
      const auto row_begin = row_y.begin() + first_row, row_end = row_y.begin() + end_row;
      const std::int64_t r0 = std::lower_bound(row_begin, row_end, c.y - patch.centre_y) - row_y.begin();
      const std::int64_t r1 = std::upper_bound(row_begin, row_end, c.y + psf.height - 1 - patch.centre_y) - row_y.begin();
      for (std::int64_t r = r0; r < r1; ++r) {
        const std::int64_t dy = row_y[r] - c.y;
        // psf[offset + x] is the PSF at the offset of pixel (x, row_y[r]) from the component.
        const std::int64_t offset = (patch.centre_y + dy) * psf.width + patch.centre_x - c.x;
        const std::int64_t* lo = std::lower_bound(xs + row_start[r], xs + row_start[r + 1], c.x - patch.centre_x);
        const std::int64_t* hi = std::upper_bound(lo, xs + row_start[r + 1], c.x + psf.width - 1 - patch.centre_x);
        if (dy >= -patch.down && dy <= patch.up) {  // leave out the patch's columns
          const std::int64_t* gap_lo = std::lower_bound(lo, hi, c.x - patch.left);
          const std::int64_t* gap_hi = std::upper_bound(gap_lo, hi, c.x + patch.right);
          subtract_gathered(values + (lo - xs), lo, gap_lo - lo, psf.pixels.data(), offset, flux);
          subtract_gathered(values + (gap_hi - xs), gap_hi, hi - gap_hi, psf.pixels.data(), offset, flux);
        } else {
          subtract_gathered(values + (lo - xs), lo, hi - lo, psf.pixels.data(), offset, flux);
        }
      }
    }
  });
}

minor_cycle_outcome run_minor_cycle(minor_cycle_pixels& pixels, const image& psf, const minor_cycle_rules& rules,
                                    image& model, std::vector<component>& components) {
  const patch_reach patch(psf);
  minor_cycle_state state;
  state.batch_flux.resize(pixels.values.size());
  minor_cycle_outcome outcome;
  for (;;) {
    const std::size_t batch_start = components.size();
    const bool next_batch = run_batch(pixels, psf, patch, rules, state, model, components);
    ++outcome.batches;
    state.earlier_error += state.batch_error;
    // A batch ends on its budget only after taking a component, so the batches end.
    if (!next_batch) break;
    correct_beyond_patch(pixels, psf, std::span(components).subspan(batch_start));
  }
  outcome.taken = state.taken;
  return outcome;
}

}  // namespace bkt::clean::cpu
