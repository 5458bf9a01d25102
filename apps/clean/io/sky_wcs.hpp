// An image header's world coordinate system (WCSLIB), for pixel -> RA/Dec, the frequency of a
// plane and the pixel scale that converts beams.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "beam_geometry.hpp"

namespace bkt::clean {

/// A celestial position in degrees: longitude in [0, 360) (RA for equatorial axes), latitude.
struct sky_position {
  double ra_deg = 0;
  double dec_deg = 0;
};

class sky_wcs {
 public:
  /// Parses the primary WCS of `header` (80-character cards, as fits_image keeps them). A header
  /// without a usable celestial WCS is no error: has_celestial() is then false and note() says why.
  explicit sky_wcs(const std::string& header);
  sky_wcs(sky_wcs&&) noexcept;
  sky_wcs& operator=(sky_wcs&&) noexcept;
  ~sky_wcs();

  bool has_celestial() const noexcept;
  /// Why there is no celestial WCS; empty when there is one.
  const std::string& note() const noexcept { return note_; }

  /// The sky position of pixel (x, y), 0-based (FITS pixel x + 1, y + 1), with axes 3 and 4 at
  /// `plane_position` (0-based; missing entries: the first plane). nullopt without a celestial
  /// WCS or where the projection has no solution.
  std::optional<sky_position> pixel_to_sky(double x, double y, const std::vector<std::int64_t>& plane_position = {}) const;

  /// The frequency in Hz of a plane, when an axis is FREQ; nullopt otherwise.
  std::optional<double> frequency_hz(const std::vector<std::int64_t>& plane_position = {}) const;

  /// The sky offset of a pixel step at the reference pixel, from CDELT and PC or from the CD
  /// matrix; nullopt without a celestial WCS.
  std::optional<pixel_scale> scale() const;

 private:
  struct parsed;  // the wcsprm array WCSLIB allocated
  std::vector<double> world_of(double x, double y, const std::vector<std::int64_t>& plane_position) const;

  std::unique_ptr<parsed> parsed_;
  std::string note_;
};

}  // namespace bkt::clean
