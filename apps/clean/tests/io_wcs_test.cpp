// World coordinates (WCSLIB) and beams between pixels and the sky: positions on a real image
// checked against the SIN projection worked by hand, and the position-angle convention.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "io/beam_geometry.hpp"
#include "io/fits_image.hpp"
#include "io/sky_wcs.hpp"
#include "tool_fixture.hpp"

namespace clean_test {
namespace {

using namespace bkt::clean;

constexpr double pi = std::numbers::pi;
constexpr double radians = pi / 180;

std::string card(std::string text) { return text.append(80 - text.size(), ' '); }

fits_image pybdsf_image() { return read_fits_image(std::string(BKT_DATA_DIR) + "/clean/pybdsf-test-image/ch0_I.fits"); }

TEST(sky_wcs_test, reference_pixel_is_crval) {
  // ch0_I.fits: CRPIX1 = CRPIX2 = 2 (1-based), so 0-based pixel (1, 1); CRVAL 258.25, 64.13333.
  const sky_wcs wcs(pybdsf_image().header);
  ASSERT_TRUE(wcs.has_celestial()) << wcs.note();
  const auto position = wcs.pixel_to_sky(1, 1);
  ASSERT_TRUE(position);
  EXPECT_NEAR(position->ra_deg, 258.25, 1e-10);
  EXPECT_NEAR(position->dec_deg, 64.13333, 1e-10);
}

TEST(sky_wcs_test, sin_projection_by_hand) {
  const sky_wcs wcs(pybdsf_image().header);
  // 0-based (11, 21) is FITS (12, 22): offsets of 10 and 20 pixels from CRPIX (2, 2).
  const double xi = -0.00585937 * 10 * radians, eta = 0.00585937 * 20 * radians;
  const double ra0 = 258.25 * radians, dec0 = 64.13333 * radians;
  // The orthographic (SIN) projection inverted, xi growing toward the east.
  const double depth = std::sqrt(1 - xi * xi - eta * eta);
  const double dec = std::asin(eta * std::cos(dec0) + std::sin(dec0) * depth);
  const double ra = ra0 + std::atan2(xi, std::cos(dec0) * depth - eta * std::sin(dec0));
  const auto position = wcs.pixel_to_sky(11, 21);
  ASSERT_TRUE(position);
  EXPECT_NEAR(position->ra_deg, ra / radians, 1e-9);
  EXPECT_NEAR(position->dec_deg, dec / radians, 1e-9);
  EXPECT_LT(position->ra_deg, 258.25);  // west of the reference: RA grows to the left
}

TEST(sky_wcs_test, frequency_of_a_plane) {
  // ch0_I.fits: FREQ is axis 4 with CRVAL4 = 23.5, CDELT4 = 3e8.
  const sky_wcs wcs(pybdsf_image().header);
  EXPECT_DOUBLE_EQ(*wcs.frequency_hz(), 23.5);
  EXPECT_DOUBLE_EQ(*wcs.frequency_hz({0, 1}), 23.5 + 3e8);
}

TEST(sky_wcs_test, scale_from_cdelt) {
  const auto scale = sky_wcs(pybdsf_image().header).scale();
  ASSERT_TRUE(scale);
  EXPECT_DOUBLE_EQ(scale->east_x, -0.00585937);
  EXPECT_DOUBLE_EQ(scale->north_y, 0.00585937);
  EXPECT_EQ(scale->east_y, 0);
  EXPECT_EQ(scale->north_x, 0);
}

TEST(sky_wcs_test, scale_from_cd_matrix_and_arcsec_units) {
  const std::string header = card("NAXIS   = 2") + card("CTYPE1  = 'RA---TAN'") + card("CTYPE2  = 'DEC--TAN'") +
                             card("CRVAL1  = 10.0") + card("CRVAL2  = -30.0") + card("CRPIX1  = 5") +
                             card("CRPIX2  = 5") + card("CD1_1   = -0.001") + card("CD1_2   = 0.0002") +
                             card("CD2_1   = 0.0003") + card("CD2_2   = 0.001");
  const auto scale = sky_wcs(header).scale();
  ASSERT_TRUE(scale);
  EXPECT_DOUBLE_EQ(scale->east_x, -0.001);
  EXPECT_DOUBLE_EQ(scale->east_y, 0.0002);
  EXPECT_DOUBLE_EQ(scale->north_x, 0.0003);
  EXPECT_DOUBLE_EQ(scale->north_y, 0.001);
  const std::string in_arcsec = card("NAXIS   = 2") + card("CTYPE1  = 'RA---SIN'") + card("CTYPE2  = 'DEC--SIN'") +
                                card("CDELT1  = -2.0") + card("CDELT2  = 2.0") + card("CUNIT1  = 'arcsec'") +
                                card("CUNIT2  = 'arcsec'");
  EXPECT_DOUBLE_EQ(sky_wcs(in_arcsec).scale()->north_y, 2.0 / 3600);
}

TEST(sky_wcs_test, no_celestial_axes) {
  const std::string header = card("NAXIS   = 2") + card("CTYPE1  = 'LINEAR'") + card("CTYPE2  = 'LINEAR'") +
                             card("CDELT1  = 2.0");
  const sky_wcs wcs(header);
  EXPECT_FALSE(wcs.has_celestial());
  EXPECT_FALSE(wcs.note().empty());
  EXPECT_FALSE(wcs.pixel_to_sky(0, 0));
  EXPECT_FALSE(wcs.scale());
  EXPECT_FALSE(sky_wcs("").has_celestial());
}

class beam_geometry_test : public ::testing::Test {
 protected:
  // The usual orientation: RA grows to the left, Dec upward, 2 arcsec pixels.
  const double step = 2.0 / 3600;
  const pixel_scale usual{-step, 0, 0, step};
};

TEST_F(beam_geometry_test, position_angle_east_of_north) {
  const sky_beam along_y = beam_on_sky({10, 5, pi / 2}, usual);  // major axis along +y = north
  EXPECT_NEAR(along_y.major_deg * 3600, 20, 1e-9);
  EXPECT_NEAR(along_y.minor_deg * 3600, 10, 1e-9);
  EXPECT_NEAR(along_y.position_angle_deg, 0, 1e-9);
  EXPECT_NEAR(beam_on_sky({10, 5, 0}, usual).position_angle_deg, 90, 1e-9);  // along x: east-west
  // 45 deg from +x toward +y points north-west (west is +x here): 45 deg west of north.
  EXPECT_NEAR(beam_on_sky({10, 5, pi / 4}, usual).position_angle_deg, -45, 1e-9);
  EXPECT_NEAR(beam_on_sky({10, 5, 3 * pi / 4}, usual).position_angle_deg, 45, 1e-9);
}

TEST_F(beam_geometry_test, sky_to_pixels_and_back) {
  const double rotation = 0.3;
  const pixel_scale rotated{-step * std::cos(rotation), step * std::sin(rotation), step * std::sin(rotation),
                            step * std::cos(rotation)};
  for (const pixel_scale& scale : {usual, rotated}) {
    const sky_beam sky{30.0 / 3600, 12.0 / 3600, 62};
    const beam pixels = beam_in_pixels(sky, scale);
    EXPECT_NEAR(pixels.major_fwhm, 15, 1e-9);
    EXPECT_NEAR(pixels.minor_fwhm, 6, 1e-9);
    const sky_beam back = beam_on_sky(pixels, scale);
    EXPECT_NEAR(back.major_deg, sky.major_deg, 1e-12);
    EXPECT_NEAR(back.minor_deg, sky.minor_deg, 1e-12);
    EXPECT_NEAR(back.position_angle_deg, 62, 1e-9);
  }
  // PA 0 (north) is pixel +y in the usual orientation.
  EXPECT_NEAR(std::fabs(beam_in_pixels({20.0 / 3600, 10.0 / 3600, 0}, usual).angle), pi / 2, 1e-9);
}

}  // namespace
}  // namespace clean_test
