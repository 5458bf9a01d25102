// The cairo drawing layer of --plot: formats by extension, text that really renders (dark pixels
// inside the box draw_text reports, none outside it), PNG files that cairo's own reader decodes
// at the size drawn, SVG and PDF documents, a failing sink, and the tick rules.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

#include "bkt_apps/app_error.hpp"
#include "bkt_apps/plot/axes.hpp"
#include "bkt_apps/plot/canvas.hpp"
#include "bkt_apps/plot/colour_bar.hpp"
#include "bkt_apps/plot/text.hpp"
#include "bkt_apps/plot/ticks.hpp"
#include "bkt_apps_test/decoded_png.hpp"

namespace bkt::apps::plot {
namespace {

/// The bytes of a finished canvas of `format`, drawn by `draw`.
template <class Draw>
std::string render(file_format format, int width, int height, Draw draw) {
  std::string bytes;
  canvas page(format, width, height, [&bytes](std::string_view chunk) { bytes.append(chunk); }, "test.plot", "A title");
  draw(page);
  page.finish();
  return bytes;
}

using bkt_apps_test::decoded_png;

/// Pixels of an image surface darker than mid grey, inside and outside `box` grown by `slack`.
struct dark_count {
  int inside = 0, outside = 0;
};
dark_count count_dark(cairo_surface_t* surface, const rectangle& box, double slack) {
  cairo_surface_flush(surface);
  const int width = cairo_image_surface_get_width(surface), height = cairo_image_surface_get_height(surface);
  const int stride = cairo_image_surface_get_stride(surface);
  const unsigned char* data = cairo_image_surface_get_data(surface);
  dark_count count;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      std::uint32_t value = 0;
      std::memcpy(&value, data + y * stride + 4 * x, 4);
      const int luminance = ((value >> 16 & 255) + (value >> 8 & 255) + (value & 255)) / 3;
      if (luminance >= 128) continue;
      const bool in = x + 0.5 >= box.left - slack && x + 0.5 <= box.right() + slack && y + 0.5 >= box.top - slack &&
                      y + 0.5 <= box.bottom() + slack;
      ++(in ? count.inside : count.outside);
    }
  return count;
}

TEST(plot_format, by_extension_in_any_case) {
  EXPECT_EQ(file_format_of("a.png"), file_format::png);
  EXPECT_EQ(file_format_of("a.PNG"), file_format::png);
  EXPECT_EQ(file_format_of("dir.x/a.Svg"), file_format::svg);
  EXPECT_EQ(file_format_of("out/chart.pdf"), file_format::pdf);
  EXPECT_EQ(file_format_of("a.gif"), std::nullopt);
  EXPECT_EQ(file_format_of("dir.png/a"), std::nullopt);
  EXPECT_EQ(file_format_of("png"), std::nullopt);
  EXPECT_EQ(file_format_of(""), std::nullopt);
}

TEST(plot_text, renders_dark_pixels_inside_its_box_only) {
  canvas page(file_format::png, 240, 80, [](std::string_view) {}, "text.png");
  const text_style style{24, false, {0, 0, 0}};
  const rectangle box = draw_text(page, "Hg 42°", 20, 20, style, align::start, align::start);
  EXPECT_NEAR(box.left, 20, 1e-9);
  EXPECT_NEAR(box.top, 20, 1e-9);
  EXPECT_GT(box.width, 24);  // six characters of a 24-unit font
  EXPECT_GT(box.height, 20);
  const dark_count count = count_dark(cairo_get_target(page.cairo()), box, 1);
  EXPECT_GT(count.inside, 100) << "no glyphs drawn: is there a font (fontconfig)?";
  EXPECT_EQ(count.outside, 0);
}

TEST(plot_text, anchors_place_the_box) {
  canvas page(file_format::png, 200, 200, [](std::string_view) {}, "text.png");
  const text_style style{12};
  const text_size size = measure_text(page, "label", style);
  const rectangle centred = draw_text(page, "label", 100, 100, style, align::centre, align::centre);
  EXPECT_NEAR(centred.left, 100 - size.width / 2, 1e-9);
  EXPECT_NEAR(centred.top, 100 - size.height / 2, 1e-9);
  const rectangle end = draw_text(page, "label", 100, 100, style, align::end, align::end);
  EXPECT_NEAR(end.right(), 100, 1e-9);
  EXPECT_NEAR(end.bottom(), 100, 1e-9);
  EXPECT_LT(measure_text(page, "label", style).width, measure_text(page, "label", text_style{24}).width);
}

TEST(plot_png, decodes_with_cairo_at_the_size_drawn) {
  const std::string png = render(file_format::png, 321, 123, [](canvas& page) {
    cairo_set_source_rgb(page.cairo(), 1, 0, 0);
    cairo_rectangle(page.cairo(), 10, 10, 20, 20);
    cairo_fill(page.cairo());
    draw_text(page, "axis", 100, 60, text_style{14}, align::start, align::centre);
  });
  ASSERT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  const decoded_png image(png);
  ASSERT_EQ(image.status(), CAIRO_STATUS_SUCCESS);
  EXPECT_EQ(image.width(), 321);
  EXPECT_EQ(image.height(), 123);
  EXPECT_EQ(image.pixel(20, 20), (std::array<int, 3>{255, 0, 0}));
  EXPECT_EQ(image.pixel(5, 5), (std::array<int, 3>{255, 255, 255}));  // the white page
  EXPECT_GT(count_dark(image.surface(), {100, 50, 60, 20}, 0).inside, 20);
}

TEST(plot_vector, svg_and_pdf_documents) {
  const auto draw = [](canvas& page) {
    draw_axes(page, {40, 10, 150, 80}, {{{0, "0"}, {1, "1"}}, {{0.5, "half"}}, "x", "y"}, axes_style{});
  };
  const std::string svg = render(file_format::svg, 200, 120, draw);
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("width=\"200"), std::string::npos);
  EXPECT_NE(svg.find("<symbol"), std::string::npos) << "no glyphs in the SVG";
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  const std::string pdf = render(file_format::pdf, 200, 120, draw);
  EXPECT_EQ(pdf.rfind("%PDF-", 0), 0u);
  EXPECT_NE(pdf.find("%%EOF"), std::string::npos);
  EXPECT_NE(pdf.find("/MediaBox [ 0 0 200 120 ]"), std::string::npos);
  EXPECT_NE(pdf.find("A title"), std::string::npos);  // the metadata title
  EXPECT_NE(pdf.find("/FontFile"), std::string::npos) << "no embedded font in the PDF";
}

TEST(plot_canvas, a_failing_sink_fails_the_plot_and_an_abandoned_one_writes_nothing) {
  for (file_format format : {file_format::png, file_format::svg, file_format::pdf}) {
    canvas page(format, 50, 50, [](std::string_view) { throw app_error("out.plot: write failed: disk full"); }, "out.plot");
    draw_text(page, "x", 10, 10, text_style{}, align::start, align::start);
    EXPECT_THROW(
        {
          try {
            page.finish();
          } catch (const app_error& error) {
            EXPECT_STREQ(error.what(), "out.plot: write failed: disk full");
            throw;
          }
        },
        app_error);
  }
  std::string bytes;
  { canvas page(file_format::svg, 50, 50, [&bytes](std::string_view chunk) { bytes.append(chunk); }, "out.svg"); }
  { canvas page(file_format::pdf, 50, 50, [&bytes](std::string_view chunk) { bytes.append(chunk); }, "out.pdf"); }
  EXPECT_EQ(bytes.find("</svg>"), std::string::npos);
  EXPECT_EQ(bytes.find("%%EOF"), std::string::npos);
}

TEST(plot_canvas, an_impossible_size_is_one_clear_error) {
  try {
    canvas page(file_format::png, 1 << 20, 1 << 20, [](std::string_view) {}, "huge.png");
    page.finish();
    FAIL() << "no error";
  } catch (const app_error& error) {
    EXPECT_EQ(std::string(error.what()).rfind("huge.png: cannot draw the plot: ", 0), 0u) << error.what();
  }
}

TEST(plot_ticks, linear_log_and_their_labels) {
  const auto linear = linear_ticks(0, 1, 5);
  ASSERT_EQ(linear.size(), 6u);
  EXPECT_EQ(linear[1].label, "0.2");
  EXPECT_EQ(linear[5].label, "1.0");
  const auto covering = linear_ticks(0, 7.3, 4, true);
  EXPECT_GE(covering.back().value, 7.3);
  EXPECT_EQ(linear_ticks(-1, 1, 2)[1].label, "0");  // no "-0"
  EXPECT_EQ(linear_ticks(3, 3, 5).size(), 1u);
  std::vector<std::string> labels;
  for (const tick& mark : log_ticks(1, 1e4, 8)) labels.push_back(mark.label);
  EXPECT_EQ(labels, (std::vector<std::string>{"1", "10", "100", "1000", "10000"}));
  EXPECT_EQ(log_ticks(1e-9, 1e9, 4).size(), 4u);  // 19 powers, every fifth
  EXPECT_EQ(power_of_ten_label(6), "10⁶");
  EXPECT_EQ(power_of_ten_label(-12), "10⁻¹²");
  EXPECT_EQ(power_of_ten_label(-2), "0.01");
  const auto along = ticks_along(log_ticks(1, 1e4, 8), 1, 1e4, true);
  ASSERT_EQ(along.size(), 5u);
  EXPECT_NEAR(along[2].fraction, 0.5, 1e-12);
}

TEST(plot_colour, maps_and_bar) {
  EXPECT_NEAR(colour_at(colour_map::diverging, 0.5).red, 245 / 255.0, 1e-12);
  EXPECT_LT(colour_at(colour_map::sequential, 0).red, colour_at(colour_map::sequential, 1).red);
  EXPECT_NEAR(colour_at(colour_map::sequential, std::nan("")).green, 0.5, 1e-12);
  EXPECT_EQ(colour_at(colour_map::sequential, -3).red, colour_at(colour_map::sequential, 0).red);  // clamped
  const std::string png = render(file_format::png, 120, 220, [](canvas& page) {
    draw_colour_bar(page, {10, 10, 20, 200}, {colour_map::sequential, {{0, "0"}, {1, "1"}}, "Jy/beam"}, axes_style{});
  });
  const decoded_png image(png);
  // The bar's top is the map's pale end, its bottom the dark end.
  EXPECT_GT(image.pixel(20, 12)[1], 200);
  EXPECT_LT(image.pixel(20, 207)[1], 40);
}

}  // namespace
}  // namespace bkt::apps::plot
