// Reading FITS inputs: every BITPIX, scaling and blanks, 2 to 4 axes, cubes, and each way a file
// can be unusable. Files are written with CFITSIO directly (fits_files.hpp).
#include <gtest/gtest.h>

#include <cmath>

#include "bkt_apps/app_error.hpp"
#include "io/fits_header.hpp"
#include "io/fits_image.hpp"
#include "tool_fixture.hpp"

namespace clean_test {
namespace {

using bkt::clean::read_fits_image;

class fits_read : public tool_test {
 protected:
  /// The message read_fits_image throws for `name`, or "" when it does not throw.
  std::string error_of(const std::string& name) {
    try {
      read_fits_image(path(name));
    } catch (const bkt::apps::app_error& e) {
      EXPECT_EQ(e.code(), 1);
      return e.what();
    }
    return "";
  }
};

TEST_F(fits_read, float32_keeps_values_and_nan) {
  write_test_fits(path("a.fits"), {-32, {3, 2}, {1, -2.5, 3, std::nan(""), 1e-30, 7}, {}, {}, {}, {}});
  const auto image = read_fits_image(path("a.fits"));
  EXPECT_EQ(image.width(), 3);
  EXPECT_EQ(image.height(), 2);
  ASSERT_EQ(image.num_planes(), 1);
  const auto& pixels = image.planes[0];
  EXPECT_EQ(pixels.at(1, 0), -2.5f);
  EXPECT_TRUE(std::isnan(pixels.at(0, 1)));
  EXPECT_EQ(pixels.at(1, 1), 1e-30f);
  EXPECT_EQ(pixels.at(2, 1), 7.0f);
}

TEST_F(fits_read, float64_is_read_as_float) {
  write_test_fits(path("d.fits"), {-64, {2, 2}, {0.1, 1e10, -3, 4}, {}, {}, {}, {}});
  const auto image = read_fits_image(path("d.fits"));
  EXPECT_EQ(image.planes[0].at(0, 0), 0.1f);
  EXPECT_EQ(image.planes[0].at(1, 0), 1e10f);
}

TEST_F(fits_read, scaled_int16_applies_bscale_bzero_and_blank) {
  write_test_fits(path("i16.fits"), {16, {2, 2}, {0, 100, -32768, -7}, {}, 0.5, 10.0, -32768});
  const auto pixels = read_fits_image(path("i16.fits")).planes[0];
  EXPECT_EQ(pixels.at(0, 0), 10.0f);
  EXPECT_EQ(pixels.at(1, 0), 60.0f);
  EXPECT_TRUE(std::isnan(pixels.at(0, 1)));  // the BLANK value
  EXPECT_EQ(pixels.at(1, 1), 6.5f);
}

TEST_F(fits_read, int8_and_int32_with_scaling) {
  write_test_fits(path("u8.fits"), {8, {2, 1}, {0, 255}, {}, 2.0, -1.0, {}});
  const auto bytes = read_fits_image(path("u8.fits")).planes[0];
  EXPECT_EQ(bytes.at(0, 0), -1.0f);
  EXPECT_EQ(bytes.at(1, 0), 509.0f);
  write_test_fits(path("i32.fits"), {32, {2, 1}, {-5, 123456}, {}, 0.001, {}, 123456});
  const auto words = read_fits_image(path("i32.fits")).planes[0];
  EXPECT_FLOAT_EQ(words.at(0, 0), -0.005f);
  EXPECT_TRUE(std::isnan(words.at(1, 0)));
}

TEST_F(fits_read, degenerate_axes_three_and_four) {
  write_test_fits(path("n3.fits"), {-32, {2, 2, 1}, {1, 2, 3, 4}, sky_cards(2, 2), {}, {}, {}});
  write_test_fits(path("n4.fits"), {-32, {2, 2, 1, 1}, {1, 2, 3, 4}, sky_cards(2, 2), {}, {}, {}});
  for (const char* name : {"n3.fits", "n4.fits"}) {
    const auto image = read_fits_image(path(name));
    EXPECT_EQ(image.num_planes(), 1) << name;
    EXPECT_EQ(image.planes[0].at(1, 1), 4.0f) << name;
  }
}

TEST_F(fits_read, cube_planes_in_fits_order) {
  write_test_fits(path("cube.fits"), {-32, {2, 1, 2, 1}, {1, 2, 10, 20}, sky_cards(2, 1), {}, {}, {}});
  const auto cube = read_fits_image(path("cube.fits"));
  ASSERT_EQ(cube.num_planes(), 2);
  EXPECT_EQ(cube.planes[0].at(1, 0), 2.0f);
  EXPECT_EQ(cube.planes[1].at(0, 0), 10.0f);
  EXPECT_EQ(cube.plane_position(1), (std::vector<std::int64_t>{1, 0}));
  // The long axis may be axis 4 (CASA's RA, Dec, Stokes, Freq order).
  write_test_fits(path("cube4.fits"), {-32, {2, 1, 1, 3}, {1, 2, 3, 4, 5, 6}, {}, {}, {}, {}});
  const auto later = read_fits_image(path("cube4.fits"));
  ASSERT_EQ(later.num_planes(), 3);
  EXPECT_EQ(later.planes[2].at(1, 0), 6.0f);
  EXPECT_EQ(later.plane_position(2), (std::vector<std::int64_t>{0, 2}));
}

TEST_F(fits_read, header_is_kept_as_cards) {
  write_test_fits(path("h.fits"), {-32, {2, 2}, {1, 2, 3, 4}, sky_cards(2, 2), {}, {}, {}});
  const auto image = read_fits_image(path("h.fits"));
  EXPECT_EQ(image.header.size() % 80, 0u);
  EXPECT_EQ(bkt::clean::header_value(image.header, "OBJECT"), "TEST-FIELD");
  EXPECT_EQ(bkt::clean::header_number(image.header, "CRVAL1"), 204.25);
  EXPECT_EQ(bkt::clean::header_value(image.header, "END"), std::nullopt);
}

TEST_F(fits_read, header_values_parse_like_fits) {
  const auto card = [](std::string text) { return text.append(80 - text.size(), ' '); };
  const std::string header = card("NAME    = 'O''Brien  '  / a quote inside") + card("SMALL   = 1.5D-3") +
                             card("HISTORY this is no value = 3") + card("FLAG    = T");
  EXPECT_EQ(bkt::clean::header_value(header, "NAME"), "O'Brien");
  EXPECT_EQ(bkt::clean::header_number(header, "SMALL"), 1.5e-3);
  EXPECT_EQ(bkt::clean::header_value(header, "HISTORY"), std::nullopt);
  EXPECT_EQ(bkt::clean::header_value(header, "FLAG"), "T");
  EXPECT_EQ(bkt::clean::header_number(header, "FLAG"), std::nullopt);
  EXPECT_TRUE(bkt::clean::is_output_owned_keyword("NAXIS3"));
  EXPECT_TRUE(bkt::clean::is_output_owned_keyword("BLANK"));
  EXPECT_FALSE(bkt::clean::is_output_owned_keyword("NAXISX"));
  EXPECT_FALSE(bkt::clean::is_output_owned_keyword("CRPIX3"));
}

TEST_F(fits_read, data_set_image_reads) {
  const auto image = read_fits_image(std::string(BKT_DATA_DIR) + "/clean/pybdsf-test-image/ch0_I.fits");
  EXPECT_EQ(image.axis_lengths, (std::vector<std::int64_t>{129, 129, 1, 1}));
  EXPECT_EQ(image.num_planes(), 1);
  EXPECT_EQ(bkt::clean::header_number(image.header, "BMAJ"), 0.015);
}

TEST_F(fits_read, missing_file) { EXPECT_NE(error_of("none.fits").find("none.fits: cannot open"), std::string::npos); }

TEST_F(fits_read, not_fits) {
  write_file(path("text.fits"), std::string(4000, 'x'));
  EXPECT_NE(error_of("text.fits").find("text.fits: not a FITS file"), std::string::npos);
  write_file(path("empty.fits"), "");
  EXPECT_NE(error_of("empty.fits").find("not a FITS file"), std::string::npos);
}

TEST_F(fits_read, truncated) {
  write_test_fits(path("whole.fits"), {-32, {100, 100}, std::vector<double>(10000, 1.0), {}, {}, {}, {}});
  const std::string whole = read_file(path("whole.fits"));
  write_file(path("cut.fits"), whole.substr(0, 2880 + 1000));
  EXPECT_NE(error_of("cut.fits").find("cut.fits: truncated"), std::string::npos) << error_of("cut.fits");
  write_file(path("short.fits"), whole.substr(0, 1000));
  EXPECT_NE(error_of("short.fits").find("short.fits: truncated"), std::string::npos);
  // Without its last block's padding the image is still whole, and readable.
  write_file(path("unpadded.fits"), whole.substr(0, 2880 + 40000));
  EXPECT_EQ(error_of("unpadded.fits"), "");
}

TEST_F(fits_read, axis_count_out_of_range) {
  write_test_fits(path("n1.fits"), {-32, {4}, {1, 2, 3, 4}, {}, {}, {}, {}});
  EXPECT_NE(error_of("n1.fits").find("n1.fits: NAXIS = 1"), std::string::npos);
  write_test_fits(path("n5.fits"), {-32, {1, 1, 1, 1, 1}, {1}, {}, {}, {}, {}});
  EXPECT_NE(error_of("n5.fits").find("n5.fits: NAXIS = 5"), std::string::npos);
}

TEST_F(fits_read, unknown_axis_layout) {
  write_test_fits(path("freq1.fits"), {-32, {4, 2}, std::vector<double>(8, 1.0), {"CTYPE1  = 'FREQ'", "CTYPE2  = 'DEC--SIN'"}, {}, {}, {}});
  EXPECT_NE(error_of("freq1.fits").find("freq1.fits: unknown axis layout: axis 1 is 'FREQ'"), std::string::npos)
      << error_of("freq1.fits");
  // The CTYPE is the file's text: echoed quoted, its control bytes escaped. (CFITSIO writes a
  // blank for the escape byte, so the byte goes into the file afterwards.)
  write_test_fits(path("escape.fits"), {-32, {4, 2}, std::vector<double>(8, 1.0), {"CTYPE1  = 'FREQ [2J'"}, {}, {}, {}});
  std::string bytes = read_file(path("escape.fits"));
  bytes[bytes.find("FREQ [2J") + 4] = '\x1b';
  write_file(path("escape.fits"), bytes);
  EXPECT_NE(error_of("escape.fits").find("axis 1 is 'FREQ\\x1b[2J'"), std::string::npos) << error_of("escape.fits");
  EXPECT_EQ(error_of("escape.fits").find('\x1b'), std::string::npos);
  write_test_fits(path("radec3.fits"), {-32, {2, 2, 2}, std::vector<double>(8, 1.0),
                                        {"CTYPE1  = 'RA---SIN'", "CTYPE2  = 'FREQ'", "CTYPE3  = 'DEC--SIN'"}, {}, {}, {}});
  EXPECT_NE(error_of("radec3.fits").find("unknown axis layout"), std::string::npos);
  write_test_fits(path("two-ra.fits"), {-32, {2, 2}, std::vector<double>(4, 1.0),
                                        {"CTYPE1  = 'RA---SIN'", "CTYPE2  = 'RA---SIN'"}, {}, {}, {}});
  EXPECT_NE(error_of("two-ra.fits").find("not a celestial pair"), std::string::npos);
  // Linear axes and swapped celestial axes are fine.
  write_test_fits(path("linear.fits"), {-32, {2, 2}, std::vector<double>(4, 1.0), {"CTYPE1  = 'LINEAR'"}, {}, {}, {}});
  EXPECT_EQ(error_of("linear.fits"), "");
  write_test_fits(path("swapped.fits"), {-32, {2, 2}, std::vector<double>(4, 1.0),
                                         {"CTYPE1  = 'DEC--TAN'", "CTYPE2  = 'RA---TAN'"}, {}, {}, {}});
  EXPECT_EQ(error_of("swapped.fits"), "");
}

TEST_F(fits_read, infinities_are_refused_where_they_are) {
  // Float data is read without CFITSIO's null check, which would make every infinity a blank.
  write_test_fits(path("pos.fits"), {-32, {3, 2}, {1, INFINITY, 3, 4, 5, 6}, {}, {}, {}, {}});
  EXPECT_EQ(error_of("pos.fits"), path("pos.fits") + ": +inf at pixel (1, 0): infinite pixels are not data (blank "
                                                     "pixels are NaN)");
  // A double beyond float's range reads as an infinity too; the message says it may have been one.
  write_test_fits(path("neg64.fits"), {-64, {2, 2}, {1, 2, 3, -INFINITY}, {}, {}, {}, {}});
  EXPECT_NE(error_of("neg64.fits").find("neg64.fits: -inf at pixel (1, 1) (as float32: infinite or beyond 3.4e38 as "
                                        "stored): infinite"),
            std::string::npos)
      << error_of("neg64.fits");
  write_test_fits(path("big64.fits"), {-64, {2, 1}, {1, 1e300}, {}, {}, {}, {}});
  EXPECT_NE(error_of("big64.fits").find("big64.fits: +inf at pixel (1, 0) (as float32"), std::string::npos)
      << error_of("big64.fits");
  // In a cube the plane is named; scaled floats keep their infinities too.
  std::vector<double> cube(2 * 2 * 3, 1.0);
  cube[2 * 4 + 2] = INFINITY;
  write_test_fits(path("cube.fits"), {-32, {2, 2, 3}, cube, {}, {}, {}, {}});
  EXPECT_NE(error_of("cube.fits").find("cube.fits: +inf at pixel (0, 1) of plane 2:"), std::string::npos)
      << error_of("cube.fits");
  write_test_fits(path("scaled.fits"), {-32, {2, 1}, {INFINITY, 1}, {}, 2.0, 1.0, {}});
  EXPECT_NE(error_of("scaled.fits").find("+inf at pixel (0, 0)"), std::string::npos) << error_of("scaled.fits");
}

TEST_F(fits_read, nan_stays_a_blank_in_float_and_scaled_float_images) {
  write_test_fits(path("nan.fits"), {-64, {2, 1}, {std::nan(""), 2}, {}, {}, {}, {}});
  const auto pixels = read_fits_image(path("nan.fits")).planes[0];
  EXPECT_TRUE(std::isnan(pixels.at(0, 0)));
  EXPECT_EQ(pixels.at(1, 0), 2.0f);
  write_test_fits(path("scaled-nan.fits"), {-32, {2, 1}, {std::nan(""), 2}, {}, 0.5, 1.0, {}});
  const auto scaled = read_fits_image(path("scaled-nan.fits")).planes[0];
  EXPECT_TRUE(std::isnan(scaled.at(0, 0)));
  EXPECT_EQ(scaled.at(1, 0), 2.0f);
}

TEST_F(fits_read, zero_bscale_is_refused) {
  write_test_fits(path("zero16.fits"), {16, {2, 2}, {1, 2, 3, 4}, {}, 0.0, 5.0, {}});
  EXPECT_NE(error_of("zero16.fits").find("zero16.fits: BSCALE = 0 would make every pixel BZERO"), std::string::npos)
      << error_of("zero16.fits");
  write_test_fits(path("zero32.fits"), {-32, {2, 2}, {1, 2, 3, 4}, {}, 0.0, {}, {}});
  EXPECT_NE(error_of("zero32.fits").find("zero32.fits: BSCALE = 0"), std::string::npos) << error_of("zero32.fits");
  // Another scale is applied as before.
  write_test_fits(path("half.fits"), {16, {2, 1}, {4, 6}, {}, 0.5, {}, {}});
  EXPECT_EQ(read_fits_image(path("half.fits")).planes[0].at(1, 0), 3.0f);
}

TEST_F(fits_read, header_alone_reads_no_pixels) {
  write_test_fits(path("cube.fits"), {-32, {3, 2, 4}, std::vector<double>(24, 1.0), {}, {}, {}, {}});
  const auto header = bkt::clean::read_fits_header(path("cube.fits"));
  EXPECT_EQ(header.axis_lengths, (std::vector<std::int64_t>{3, 2, 4}));
  EXPECT_EQ(header.num_planes(), 0);
  EXPECT_EQ(bkt::clean::pixel_count(header), 24);
  EXPECT_FALSE(header.header.empty());
  // The same checks as a full read.
  write_test_fits(path("n1.fits"), {-32, {4}, {1, 2, 3, 4}, {}, {}, {}, {}});
  EXPECT_THROW(bkt::clean::read_fits_header(path("n1.fits")), bkt::apps::app_error);
}

}  // namespace
}  // namespace clean_test
