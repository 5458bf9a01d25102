// The PSF's main lobe: what Clark's cutoff (max_sidelobe) and the restoring beam fit (fit_beam)
// both start from.
#pragma once

#include <cstdint>
#include <vector>

#include "image.hpp"

namespace bkt::clean::cpu {

/// 1 for each PSF pixel in the main lobe: the pixels reachable from the centre through
/// 4-neighbours, each step to a value that is positive and not larger than the one before. A
/// monotone descent cannot climb a sidelobe, so sidelobes stay outside even where they touch the
/// lobe's skirt. Empty lobe (all 0) when the centre is not positive.
std::vector<std::uint8_t> main_lobe(const image& psf);

}  // namespace bkt::clean::cpu
