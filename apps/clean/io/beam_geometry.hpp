// A Gaussian beam between pixel units (deconvolve.hpp's beam: FWHMs in pixels, angle from +x
// counter-clockwise) and the sky (FITS BMAJ/BMIN in degrees, BPA east of north), through the
// image's local pixel scale.
#pragma once

#include "../deconvolve.hpp"

namespace bkt::clean {

/// A beam on the sky as FITS headers state it: full widths at half maximum in degrees, and the
/// position angle of the major axis in degrees, measured from north through east, in (-90, 90].
struct sky_beam {
  double major_deg = 0;
  double minor_deg = 0;
  double position_angle_deg = 0;
};

/// The sky offset of one pixel step, in degrees: moving +1 along x goes east_x east and north_x
/// north (an image with RA increasing to the left has east_x < 0).
struct pixel_scale {
  double east_x = 0, east_y = 0;
  double north_x = 0, north_y = 0;
};

/// The pixel beam as it appears on the sky.
sky_beam beam_on_sky(const beam& pixel_beam, const pixel_scale& scale);

/// The sky beam in pixel units; throws bkt::apps::app_error when the scale is singular.
beam beam_in_pixels(const sky_beam& sky, const pixel_scale& scale);

}  // namespace bkt::clean
