// The quick-look plot: sexagesimal labels and tick steps, sky axes from the WCS (RA along the
// bottom, or along the left for a rotated image; pixels without a celestial WCS), the picture as
// a PNG that cairo decodes at the laid-out size with the beam drawn, SVG and PDF documents, and
// the stretches' inverses.
#include <cairo.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "io/colour_scale.hpp"
#include "io/quick_look.hpp"
#include "io/sky_axes.hpp"
#include "io/sky_wcs.hpp"
#include "bkt_apps_test/decoded_png.hpp"
#include "tool_fixture.hpp"

namespace clean_test {
namespace {

using namespace bkt::clean;
namespace plot = bkt::apps::plot;

std::string card(std::string text) { return text.append(80 - text.size(), ' '); }

/// A 2-D header at 1 arcsec per pixel around RA 12h30m, Dec +12°, reference pixel at the centre;
/// `rotated`: the sky turned by 90 degrees, so that RA runs along y.
std::string sky_header(long width, long height, bool rotated = false) {
  std::string header;
  for (const std::string& text :
       {std::string("SIMPLE  = T"), std::string("BITPIX  = -32"), std::string("NAXIS   = 2"),
        "NAXIS1  = " + std::to_string(width), "NAXIS2  = " + std::to_string(height), std::string("CTYPE1  = 'RA---SIN'"),
        std::string("CRVAL1  = 187.5"), std::string("CDELT1  = -0.000277777777777778"),
        "CRPIX1  = " + std::to_string(width / 2 + 1), std::string("CTYPE2  = 'DEC--SIN'"), std::string("CRVAL2  = 12.0"),
        std::string("CDELT2  = 0.000277777777777778"), "CRPIX2  = " + std::to_string(height / 2 + 1),
        std::string("RADESYS = 'ICRS'")})
    header += card(text);
  if (rotated) header += card("PC1_1   = 0") + card("PC1_2   = -1") + card("PC2_1   = 1") + card("PC2_2   = 0");
  return header + card("END");
}

TEST(sky_labels, sexagesimal_to_the_step) {
  const double second_of_time = 15.0 / 3600, arcsecond = 1.0 / 3600;
  EXPECT_EQ(format_right_ascension(187.5, second_of_time), "12h30m00s");
  EXPECT_EQ(format_right_ascension(187.5 + 0.5 * second_of_time, 0.5 * second_of_time), "12h30m00.5s");
  EXPECT_EQ(format_right_ascension(187.5, 60 * second_of_time), "12h30m");
  EXPECT_EQ(format_right_ascension(-15, 3600 * second_of_time), "23h");
  EXPECT_EQ(format_right_ascension(360 - 0.01 * second_of_time, second_of_time), "00h00m00s");  // rounds past 24h
  EXPECT_EQ(format_declination(45 + 30.0 / 60 + 15.0 / 3600, arcsecond), "+45°30′15″");
  EXPECT_EQ(format_declination(-0.5, 60 * arcsecond), "-00°30′");
  EXPECT_EQ(format_declination(-0.1 * arcsecond, arcsecond), "+00°00′00″");  // no "-0"
  EXPECT_EQ(format_declination(-30, 3600 * arcsecond), "-30°");
  EXPECT_EQ(format_declination(12 + 0.25 * arcsecond, 0.05 * arcsecond), "+12°00′00.25″");
  // About four ticks over a degree: 15 minutes of time or of arc (both a quarter degree).
  EXPECT_NEAR(sky_tick_step(1.0, 4, true), 0.25, 1e-12);
  EXPECT_NEAR(sky_tick_step(1.0, 4, false), 0.25, 1e-12);
  EXPECT_NEAR(sky_tick_step(100 * arcsecond, 5, false), 20 * arcsecond, 1e-12);
}

TEST(sky_labels, axes_follow_the_wcs) {
  const sky_wcs wcs(sky_header(200, 100));
  ASSERT_TRUE(wcs.has_celestial()) << wcs.note();
  const plot::frame_axes axes = sky_axes(wcs, sky_header(200, 100), 200, 100, {});
  EXPECT_EQ(axes.bottom_title, "Right ascension (ICRS)");
  EXPECT_EQ(axes.left_title, "Declination (ICRS)");
  // 200 arcsec of RA at Dec 12: 13.6 s of time; about four ticks of 5 s.
  ASSERT_GE(axes.bottom.size(), 2u);
  for (std::size_t i = 0; i < axes.bottom.size(); ++i) {
    EXPECT_EQ(axes.bottom[i].label.rfind("12h", 0), 0u) << axes.bottom[i].label;
    EXPECT_EQ(axes.bottom[i].label.back(), 's');
    if (i > 0) EXPECT_GT(axes.bottom[i].fraction, axes.bottom[i - 1].fraction);
  }
  // RA grows to the east, which is left: the first tick (leftmost) has the larger RA.
  EXPECT_GT(axes.bottom.front().label, axes.bottom.back().label);
  // The centre column is RA 12h30m00s exactly (CRPIX at x = 100), a 5 s tick.
  bool centre = false;
  for (const auto& mark : axes.bottom)
    if (mark.label == "12h30m00s") centre = std::fabs(mark.fraction - 100.5 / 200) < 1e-3;
  EXPECT_TRUE(centre);
  ASSERT_GE(axes.left.size(), 2u);
  for (const auto& mark : axes.left) EXPECT_EQ(mark.label.rfind("+1", 0), 0u) << mark.label;  // +11°59′ to +12°00′
}

TEST(sky_labels, a_rotated_image_has_ra_on_the_left) {
  const plot::frame_axes axes = sky_axes(sky_wcs(sky_header(100, 100, true)), sky_header(100, 100, true), 100, 100, {});
  EXPECT_EQ(axes.bottom_title, "Declination (ICRS)");
  EXPECT_EQ(axes.left_title, "Right ascension (ICRS)");
  ASSERT_FALSE(axes.left.empty());
  EXPECT_EQ(axes.left.front().label.back(), 's');
}

TEST(sky_labels, pixels_without_a_celestial_wcs) {
  const std::string header = card("SIMPLE  = T") + card("NAXIS   = 2") + card("END");
  const plot::frame_axes axes = sky_axes(sky_wcs(header), header, 64, 32, {});
  EXPECT_EQ(axes.bottom_title, "x (pixel)");
  EXPECT_EQ(axes.left_title, "y (pixel)");
  ASSERT_FALSE(axes.bottom.empty());
  EXPECT_EQ(axes.bottom.front().label, "0");
  EXPECT_NEAR(axes.bottom.front().fraction, 0.5 / 64, 1e-12);
}

/// The quick look of a dark sky with one source, as bytes.
std::string quick_look_bytes(plot::file_format format, std::optional<beam> restoring_beam, const std::string& header) {
  image restored{100, 100, std::vector<float>(10000, 0.0f)}, residual = restored;
  restored.at(50, 50) = 1;
  restored.at(0, 0) = std::nanf("");
  residual.at(20, 5) = -0.01f;
  residual.at(70, 5) = 0.01f;
  const sky_wcs wcs(header);
  std::string bytes;
  write_quick_look({restored, residual, "JY/BEAM", wcs, header, {}, restoring_beam}, format, "look",
                   [&bytes](std::string_view chunk) { bytes.append(chunk); });
  return bytes;
}

/// A PNG's size, and how many pixels of its left half (the restored panel) are lighter than
/// `level` in every channel.
struct png_summary {
  int width = 0, height = 0, light_left = 0;
};
png_summary decode(const std::string& png, int level) {
  const bkt_apps_test::decoded_png image(png);
  EXPECT_EQ(image.status(), CAIRO_STATUS_SUCCESS);
  png_summary result{image.width(), image.height(), 0};
  for (int y = 0; y < result.height; ++y)
    for (int x = 0; x < result.width / 2; ++x) {
      const auto [red, green, blue] = image.pixel(x, y);
      if (red > level && green > level && blue > level) ++result.light_left;
    }
  return result;
}

TEST(quick_look, png_at_the_laid_out_size_with_the_beam) {
  const std::string header = sky_header(100, 100);
  const png_summary without = decode(quick_look_bytes(plot::file_format::png, std::nullopt, header), 150);
  // Two panels of 400 units (the 100-pixel images scaled 4 times) with their axes and bars.
  EXPECT_GT(without.width, 2 * 400 + 100);
  EXPECT_LT(without.width, 2 * 400 + 500);
  EXPECT_GT(without.height, 400);
  EXPECT_LT(without.height, 400 + 200);
  // A 20 x 10 pixel beam is an ellipse of 80 x 40 units, pale on the dark sky: about 2500 more
  // light pixels (pi * 40 * 20) in the restored panel.
  const png_summary with = decode(quick_look_bytes(plot::file_format::png, beam{20, 10, 0.3}, header), 150);
  EXPECT_EQ(with.width, without.width);
  EXPECT_GT(with.light_left - without.light_left, 1800);
  EXPECT_LT(with.light_left - without.light_left, 3200);
}

TEST(quick_look, svg_and_pdf_documents) {
  const std::string header = sky_header(100, 100);
  const std::string svg = quick_look_bytes(plot::file_format::svg, beam{3, 2, 0}, header);
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("data:image/png;base64,"), std::string::npos);  // the image, embedded at its own pixels
  EXPECT_NE(svg.find("<symbol"), std::string::npos);                 // glyphs of the labels
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  const std::string pdf = quick_look_bytes(plot::file_format::pdf, std::nullopt, header);
  EXPECT_EQ(pdf.rfind("%PDF-", 0), 0u);
  EXPECT_NE(pdf.find("/Subtype /Image"), std::string::npos);
  EXPECT_NE(pdf.find("%%EOF"), std::string::npos);
}

TEST(quick_look, degenerate_images_still_draw) {
  const std::string no_wcs = card("SIMPLE  = T") + card("NAXIS   = 2") + card("END");
  const sky_wcs wcs(no_wcs);
  for (const auto& [width, height] : std::vector<std::pair<long, long>>{{1, 1}, {2000, 3}, {3, 901}}) {
    SCOPED_TRACE(std::to_string(width) + " x " + std::to_string(height));
    const auto size = static_cast<std::size_t>(width * height);
    image all_nan{width, height, std::vector<float>(size, std::nanf(""))}, zeros{width, height, std::vector<float>(size, 0.0f)};
    std::string bytes;
    write_quick_look({all_nan, zeros, "K", wcs, no_wcs, {}, beam{1, 1, 0}}, plot::file_format::png, "look",
                     [&bytes](std::string_view chunk) { bytes.append(chunk); });
    const png_summary png = decode(bytes, 150);
    EXPECT_GT(png.width, 2 * 100);
    EXPECT_GT(png.height, 160);  // the colour bars keep their height beside a flat image
  }
}

TEST(quick_look, units_as_viewers_write_them) {
  EXPECT_EQ(display_unit("JY/BEAM"), "Jy/beam");
  EXPECT_EQ(display_unit("Jy/Beam"), "Jy/beam");
  EXPECT_EQ(display_unit("JY/PIXEL"), "Jy/pixel");
  EXPECT_EQ(display_unit("K"), "K");
}

TEST(stretch_test, value_at_inverts_apply) {
  image noisy{100, 100, {}};
  for (int i = 0; i < 10000; ++i) noisy.pixels.push_back(static_cast<float>(std::sin(i * 12.9898) * 0.001));
  noisy.pixels[5000] = 10;  // a bright source far above the noise: asinh
  const display_stretch bright = restored_stretch(noisy);
  EXPECT_TRUE(bright.asinh);
  const display_stretch symmetric = residual_stretch(noisy);
  EXPECT_FALSE(symmetric.asinh);
  EXPECT_EQ(symmetric.low, -symmetric.high);
  for (const display_stretch& stretch : {bright, symmetric})
    for (double t : {0.0, 0.3, 0.77, 1.0}) EXPECT_NEAR(stretch.apply(stretch.value_at(t)), t, 1e-9);
  EXPECT_EQ(bright.apply(1e9), 1.0);
  EXPECT_TRUE(std::isnan(bright.apply(std::nan(""))));
}

}  // namespace
}  // namespace clean_test
