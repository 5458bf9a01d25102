// A PSF made from the dirty image's own restoring beam (--psf-beam): for images that are already
// a Gaussian beam convolved with the sky (restored images, single-dish or smoothed maps), which
// come without a PSF file.
#pragma once

#include <optional>

#include "beam_geometry.hpp"
#include "fits_image.hpp"

namespace bkt::clean {

/// One plane of the dirty image's size holding the Gaussian of the header's BMAJ/BMIN/BPA, peak 1
/// at pixel (width/2, height/2). Throws bkt::apps::app_error "DIRTY: problem" when the header
/// lacks the beam or `scale` is missing (no celestial WCS to put the beam on pixels).
fits_image psf_from_header_beam(const fits_image& dirty, const std::optional<pixel_scale>& scale);

}  // namespace bkt::clean
