// One minor cycle of Clark's CLEAN (Clark 1980): Högbom's loop over the brightest residual pixels
// only, subtracting a patch of the PSF's centre instead of the whole PSF.
//
// The patch leaves out the PSF beyond it, so the pixels' values drift from the true residual by
// the sum of (flux taken) x (PSF outside the patch). The minor cycle therefore runs in batches
// tracking E = sum over its pixels of (flux added there in the batch)^2: a batch ends once
// exterior_sidelobe^2 x E reaches (batch fraction x peak)^2, the pixels are then corrected for it
// with the whole PSF (correct_beyond_patch) and the next batch starts from exact values; the
// minor cycle ends once exterior_sidelobe^2 x (sum of its batches' E) reaches (cycle fraction x
// peak)^2, since pixels outside the list drift as much and only the major cycle sees them. The
// GPU minor cycle (gpu/clark_minor.hpp) follows the same rules; clark_cpu.cpp picks the fractions.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "image.hpp"

namespace bkt::clean::cpu {

/// At most this many pixels take part in a minor cycle: the largest |residual| ones. A PSF with
/// low sidelobes would otherwise let a noisy image put most of its pixels in, and each minor
/// iteration visits every one of them.
inline constexpr std::int64_t max_minor_cycle_pixels = 100000;

/// The PSF patch of a minor cycle reaches at most this many pixels from the centre (and never past
/// the PSF's edge): beyond it the batches' corrections and the major cycles subtract the PSF.
inline constexpr std::int64_t max_patch_half_width = 128;

/// The pixels of one minor cycle in index order, with their current residual values.
struct minor_cycle_pixels {
  std::vector<std::int64_t> x;
  std::vector<std::int64_t> y;
  std::vector<float> values;
  bool capped = false;          // more pixels passed the cutoff than max_count
  float largest_left_out = 0;   // when capped: the largest |residual| of those left out
};

/// The candidates whose |residual| exceeds `cutoff`, plus the pixel at peak_index, keeping the
/// max_count largest (ties: smaller index) when there are more.
minor_cycle_pixels select_minor_cycle_pixels(const image& residual, const std::vector<std::uint8_t>& candidates,
                                             double cutoff, std::int64_t peak_index, std::int64_t max_count);

/// The largest |psf| at the offsets a component can reach in a width x height image (|dx| < width,
/// |dy| < height) outside the patch; 0 when the patch covers them all.
double exterior_sidelobe(const image& psf, std::int64_t width, std::int64_t height);

/// For each component of `batch` in order and each pixel: value = fmaf(-flux, psf[offset +
/// centre], value) where the offset lies outside the patch and inside the PSF. After a batch of
/// the minor cycle this makes the values the residual the whole PSF leaves.
void correct_beyond_patch(minor_cycle_pixels& pixels, const image& psf, std::span<const component> batch);

/// How a minor cycle runs. Error scales: exterior_sidelobe^2 / fraction^2; 0 never ends on it.
struct minor_cycle_rules {
  float gain = 0;                 // float(params.gain)
  double level = 0;               // stop once the peak is at or below this (after one component)
  double batch_error_scale = 0;   // end a batch once scale x E >= peak^2
  double cycle_error_scale = 0;   // end the minor cycle once scale x (sum of its batches' E) >= peak^2
  std::int64_t max_components = 0;
};

/// What a minor cycle did.
struct minor_cycle_outcome {
  std::int64_t taken = 0;  // components, over all batches
  std::int64_t batches = 0;
};

/// Högbom's iteration (deconvolve.hpp's arithmetic) over `pixels` with the PSF patch, in batches
/// (see above), always taking a first component; then it stops when the peak is at or below
/// rules.level, the cycle's error budget is spent, max_components were taken or no pixel is left.
/// Adds each component to `model` and `components`.
minor_cycle_outcome run_minor_cycle(minor_cycle_pixels& pixels, const image& psf, const minor_cycle_rules& rules,
                                    image& model, std::vector<component>& components);

}  // namespace bkt::clean::cpu
