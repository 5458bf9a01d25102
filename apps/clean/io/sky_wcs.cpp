#include "sky_wcs.hpp"

#include <wcslib/wcs.h>
#include <wcslib/wcsfix.h>
#include <wcslib/wcshdr.h>

#include <cmath>
#include <cstring>

#include "fits_header.hpp"

namespace bkt::clean {

struct sky_wcs::parsed {
  int count = 0;
  wcsprm* all = nullptr;  // count entries; the primary one (no alternate letter) is used
  wcsprm* primary = nullptr;
  ~parsed() {
    if (all != nullptr) wcsvfree(&count, &all);
  }
};

sky_wcs::sky_wcs(const std::string& header) : parsed_(std::make_unique<parsed>()) {
  std::string cards = header;  // wcspih takes a non-const buffer
  int rejected = 0;
  const int num_cards = static_cast<int>(cards.size() / fits_card_length);
  const int status = wcspih(cards.data(), num_cards, WCSHDR_all, 0, &rejected, &parsed_->count, &parsed_->all);
  if (status != 0) {
    note_ = std::string("WCSLIB cannot parse the header: ") + wcshdr_errmsg[status];
    return;
  }
  for (int i = 0; i < parsed_->count; ++i)
    if (parsed_->all[i].alt[0] == ' ' || parsed_->all[i].alt[0] == '\0') parsed_->primary = &parsed_->all[i];
  if (parsed_->primary == nullptr) {
    note_ = "no world coordinate system in the header";
    return;
  }
  // Repairs of common non-standard forms (e.g. DATE-OBS, 'DEG' units, missing CUNIT) before use;
  // they only fill in or normalise, so their individual outcomes do not matter.
  int fix_status[NWCSFIX] = {};
  wcsfix(0, nullptr, parsed_->primary, fix_status);
  if (const int set_status = wcsset(parsed_->primary); set_status != 0) {
    note_ = std::string("WCSLIB cannot use the header's WCS: ") + wcs_errmsg[set_status];
    parsed_->primary = nullptr;
    return;
  }
  if (!has_celestial()) note_ = "no celestial axes (RA/Dec) in the header's WCS";
}

sky_wcs::sky_wcs(sky_wcs&&) noexcept = default;
sky_wcs& sky_wcs::operator=(sky_wcs&&) noexcept = default;
sky_wcs::~sky_wcs() = default;

bool sky_wcs::has_celestial() const noexcept {
  const wcsprm* wcs = parsed_ ? parsed_->primary : nullptr;
  // The image axes are pixel axes 1 and 2, so the celestial pair must be those (in either order).
  return wcs != nullptr && wcs->lng >= 0 && wcs->lat >= 0 && wcs->lng + wcs->lat == 1;
}

std::vector<double> sky_wcs::world_of(double x, double y, const std::vector<std::int64_t>& plane_position) const {
  wcsprm* wcs = parsed_ ? parsed_->primary : nullptr;
  if (wcs == nullptr) return {};
  const auto num_axes = static_cast<std::size_t>(wcs->naxis);
  std::vector<double> pixel(num_axes, 1.0), intermediate(num_axes), world(num_axes);
  pixel[0] = x + 1;  // FITS pixel coordinates are 1-based
  if (num_axes > 1) pixel[1] = y + 1;
  for (std::size_t axis = 2; axis < num_axes && axis - 2 < plane_position.size(); ++axis)
    pixel[axis] = static_cast<double>(plane_position[axis - 2]) + 1;
  double phi = 0, theta = 0;
  int bad = 0;
  if (wcsp2s(wcs, 1, wcs->naxis, pixel.data(), intermediate.data(), &phi, &theta, world.data(), &bad) != 0) return {};
  return world;
}

std::optional<sky_position> sky_wcs::pixel_to_sky(double x, double y, const std::vector<std::int64_t>& plane_position) const {
  if (!has_celestial()) return std::nullopt;
  const auto world = world_of(x, y, plane_position);
  if (world.empty()) return std::nullopt;
  const wcsprm* wcs = parsed_->primary;
  double longitude = std::fmod(world[wcs->lng], 360.0);
  if (longitude < 0) longitude += 360;
  return sky_position{longitude, world[wcs->lat]};
}

std::optional<double> sky_wcs::frequency_hz(const std::vector<std::int64_t>& plane_position) const {
  const wcsprm* wcs = parsed_ ? parsed_->primary : nullptr;
  if (wcs == nullptr || wcs->spec < 0 || std::strncmp(wcs->ctype[wcs->spec], "FREQ", 4) != 0) return std::nullopt;
  // The image centre is as good as any pixel: the spectral axis does not depend on x and y.
  const auto world = world_of(0, 0, plane_position);
  if (world.empty()) return std::nullopt;
  return world[wcs->spec];
}

std::optional<pixel_scale> sky_wcs::scale() const {
  if (!has_celestial()) return std::nullopt;
  const wcsprm* wcs = parsed_->primary;
  // After wcsset, CDELT x PC is the pixel -> intermediate world matrix (a CD matrix has been moved
  // into PC with CDELT 1), in degrees for celestial axes. The intermediate longitude coordinate
  // grows toward increasing longitude, i.e. east, which is why RA images carry CDELT1 < 0.
  const int n = wcs->naxis;
  const auto element = [&](int row, int column) { return wcs->cdelt[row] * wcs->pc[row * n + column]; };
  return pixel_scale{element(wcs->lng, 0), element(wcs->lng, 1), element(wcs->lat, 0), element(wcs->lat, 1)};
}

}  // namespace bkt::clean
