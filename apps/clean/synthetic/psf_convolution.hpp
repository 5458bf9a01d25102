// A sky convolved with a PSF under CLEAN's convention: out[q] = sum_p sky[p] * psf[q - p + centre],
// centre = (psf_centre(psf.width), psf_centre(psf.height)), PSF pixels off its edge counting as 0.
#pragma once

#include "image.hpp"

namespace bkt::clean::synthetic {

/// Directly, summing in double: the reference for tests. Costs (nonzero sky pixels) x (pixels).
image convolve_direct(const image& sky, const image& psf);

/// Directly for a sparse sky, else by zero-padded float FFTs, whichever costs less.
image convolve(const image& sky, const image& psf);

}  // namespace bkt::clean::synthetic
