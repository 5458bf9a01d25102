// One minor cycle of Clark's CLEAN (Clark 1980): Högbom's loop over the brightest residual pixels
// only, subtracting a patch of the PSF's centre instead of the whole PSF.
#pragma once

#include <cstdint>
#include <vector>

#include "image.hpp"

namespace bkt::clean::cpu {

/// At most this many pixels take part in a minor cycle: the largest |residual| ones. A PSF with
/// low sidelobes would otherwise let a noisy image put most of its pixels in, and each minor
/// iteration visits every one of them.
inline constexpr std::int64_t max_minor_cycle_pixels = 100000;

/// The PSF patch of a minor cycle reaches at most this many pixels from the centre (and never past
/// the PSF's edge): beyond it the PSF holds only sidelobes, which the next major cycle subtracts.
inline constexpr std::int64_t max_patch_half_width = 128;

/// The pixels of one minor cycle in index order, with their current residual values.
struct minor_cycle_pixels {
  std::vector<std::int64_t> x;
  std::vector<std::int64_t> y;
  std::vector<float> values;
};

/// The candidates whose |residual| exceeds `cutoff`, plus the pixel at peak_index, keeping the
/// max_count largest (ties: smaller index) when there are more.
minor_cycle_pixels select_minor_cycle_pixels(const image& residual, const std::vector<std::uint8_t>& candidates,
                                             double cutoff, std::int64_t peak_index, std::int64_t max_count);

/// Högbom's iteration (deconvolve.hpp's arithmetic) over `pixels` with the PSF patch until their
/// largest |value| is at or below stop_at or max_components were taken. Adds each component to
/// `model` and `components`; returns how many it took.
std::int64_t run_minor_cycle(minor_cycle_pixels& pixels, const image& psf, float gain, double stop_at,
                             std::int64_t max_components, image& model, std::vector<component>& components);

}  // namespace bkt::clean::cpu
