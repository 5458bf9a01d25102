// --plot: the bar chart as PNG, SVG or PDF by the file's extension. The PNG is decoded with
// cairo's reader and its bars measured: one bar per non-empty bin, heights in proportion to the
// counts, equal widths for equal bins (on a log axis too).
#include <cairo.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "test_files.hpp"
#include "tool_fixture.hpp"

namespace histogram_test {
namespace {

class plot : public tool_test {};

/// A bar as the PNG shows it: its columns and its height in pixels of the bar colour.
struct drawn_bar {
  int left = 0, right = 0;  // first and last column, inclusive
  int height = 0;           // bar-coloured pixels in its middle column
};

/// The bars of a chart PNG: runs of columns holding the bar colour (#4878a8), which the white
/// outlines between neighbouring bars separate.
std::vector<drawn_bar> bars_in(const std::string& png_path, int& width, int& height) {
  cairo_surface_t* surface = cairo_image_surface_create_from_png(png_path.c_str());
  EXPECT_EQ(cairo_surface_status(surface), CAIRO_STATUS_SUCCESS) << png_path;
  width = cairo_image_surface_get_width(surface);
  height = cairo_image_surface_get_height(surface);
  const int stride = cairo_image_surface_get_stride(surface);
  const unsigned char* data = cairo_image_surface_get_data(surface);
  const auto is_bar = [&](int x, int y) {
    std::uint32_t value = 0;
    std::memcpy(&value, data + y * stride + 4 * x, 4);
    return (value & 0xffffff) == 0x4878a8;
  };
  const auto column_height = [&](int x) {
    int count = 0;
    for (int y = 0; y < height; ++y) count += is_bar(x, y);
    return count;
  };
  std::vector<drawn_bar> bars;
  for (int x = 0; x < width; ++x) {
    if (column_height(x) == 0) continue;
    if (bars.empty() || bars.back().right != x - 1) bars.push_back({x, x, 0});
    bars.back().right = x;
  }
  for (drawn_bar& bar : bars) bar.height = column_height((bar.left + bar.right) / 2);
  cairo_surface_destroy(surface);
  return bars;
}

TEST_F(plot, png_bars_follow_the_counts) {
  // Counts 3, 4, 1, 2 in [0, 2), [2, 4), [4, 6), [6, 8].
  write_file(path("data.txt"), "0.5\n1\n1.5\n2\n2.5\n3\n3.5\n4.5\n6\n8\n");
  const auto run = run_histogram({path("data.txt"), "--bins", "4", "--range", "0:8", "--plot", path("chart.png")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(read_file(path("chart.png")).substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  int width = 0, height = 0;
  const auto bars = bars_in(path("chart.png").string(), width, height);
  EXPECT_EQ(width, 800);
  EXPECT_EQ(height, 500);
  ASSERT_EQ(bars.size(), 4u);
  const double counts[] = {3, 4, 1, 2};
  for (std::size_t bin = 0; bin < 4; ++bin) {
    // The tallest bar sets the scale; each is within 2 pixels of its share (outline, rounding).
    EXPECT_NEAR(bars[bin].height, bars[1].height * counts[bin] / 4, 2.0) << "bin " << bin;
    EXPECT_NEAR(bars[bin].right - bars[bin].left, bars[0].right - bars[0].left, 2) << "bin " << bin;
  }
  EXPECT_GT(bars[1].height, 250);  // the chart's height goes to the bars, not to margins
  EXPECT_EQ(listing(), (std::vector<std::string>{"chart.png", "data.txt"}));
}

TEST_F(plot, log_axis_gives_equal_bins_equal_widths) {
  // Values evenly spaced in log10 over 1 to 10^4: the twelve log bins hold 100 each.
  std::vector<double> values;
  for (int index = 0; index < 1200; ++index) values.push_back(std::pow(10.0, (index + 0.5) / 300));
  write_npy<double>(path("data.npy"), values);
  const auto run = run_histogram({path("data.npy"), "--log", "--bins", "12", "--range", "1:10000", "--plot", path("log.png")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  int width = 0, height = 0;
  const auto bars = bars_in(path("log.png").string(), width, height);
  ASSERT_EQ(bars.size(), 12u);
  for (const drawn_bar& bar : bars) {
    EXPECT_NEAR(bar.right - bar.left, bars[0].right - bars[0].left, 2);
    EXPECT_NEAR(bar.height, bars[0].height, 2);
  }
}

TEST_F(plot, svg_and_pdf_by_the_extension) {
  write_raw<std::int32_t>(path("small.i32"), std::vector<std::int32_t>{0, 1, 1, 2, 3, 3, 3, 9, -1, 20});
  for (const char* name : {"chart.svg", "chart.PDF"}) {
    const auto run = run_histogram(
        {path("small.i32"), "--dtype", "i32", "--bins", "4", "--range", "0:8", "--plot", path(name), "-o", path("t.txt")});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.out, "");
  }
  const std::string svg = read_file(path("chart.svg"));
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("viewBox=\"0 0 800 500\""), std::string::npos);
  EXPECT_NE(svg.find("<symbol"), std::string::npos) << "no glyphs: the title and labels are missing";
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
  const std::string pdf = read_file(path("chart.PDF"));
  EXPECT_EQ(pdf.rfind("%PDF-", 0), 0u);
  EXPECT_NE(pdf.find("%%EOF"), std::string::npos);
  // The title in the document's metadata, as cairo writes it: UTF-16 in hexadecimal.
  std::string title = "FEFF";
  for (char c : std::string("Histogram of small.i32 (10 values, 4 bins)")) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "00%02X", static_cast<unsigned>(c));
    title += hex;
  }
  EXPECT_NE(pdf.find("/Title <" + title + ">"), std::string::npos);
  EXPECT_EQ(listing(), (std::vector<std::string>{"chart.PDF", "chart.svg", "small.i32", "t.txt"}));
}

}  // namespace
}  // namespace histogram_test
