// An image as read from a FITS primary HDU: its planes, and what writing results alike needs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "../image.hpp"

namespace bkt::clean {

struct fits_image {
  std::string name;                        // the path, for messages
  std::vector<std::int64_t> axis_lengths;  // NAXIS1..NAXISn, n from 2 to 4
  std::string header;                      // every card of the primary header, 80 characters each, no END
  /// Axes 3 and 4 flattened in FITS order: plane p is (i3, i4) = (p % NAXIS3, p / NAXIS3).
  std::vector<image> planes;

  std::int64_t width() const { return axis_lengths[0]; }
  std::int64_t height() const { return axis_lengths[1]; }
  std::int64_t num_planes() const { return static_cast<std::int64_t>(planes.size()); }
  /// The 0-based pixel position of plane p along axes 3 and 4 (as many entries as those axes).
  std::vector<std::int64_t> plane_position(std::int64_t plane) const;
};

/// Reads the primary HDU of `path`: BITPIX 8/16/32/64 (scaled by BSCALE/BZERO, BLANK -> NaN),
/// -32 or -64 (NaN stays NaN: a blank), NAXIS 2 to 4 in a layout check_axis_layout accepts. Throws
/// bkt::apps::app_error "PATH: problem" for a missing, unreadable, non-FITS or truncated file, a
/// bad layout, BSCALE = 0, and a pixel of +inf or -inf (with its position).
fits_image read_fits_image(const std::string& path);

/// The checks and header of read_fits_image without reading a pixel (planes stays empty): what
/// a run plans its memory from.
fits_image read_fits_header(const std::string& path);

/// The pixels the axes hold, all planes (read or not). Throws app_error "NAME: image too large"
/// past 2^60.
std::int64_t pixel_count(const fits_image& file);

}  // namespace bkt::clean
