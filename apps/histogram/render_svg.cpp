#include "render_svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "axis_ticks.hpp"
#include "number_format.hpp"

namespace bkt::apps::histogram {
namespace {

constexpr double width = 800, height = 500;
constexpr double left = 90, right = 30, top = 50, bottom = 70;  // margins around the plot area
constexpr double plot_left = left, plot_right = width - right, plot_top = top, plot_bottom = height - bottom;

std::string number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f", value);
  return buffer;
}

std::string escape_xml(const std::string& text) {
  std::string escaped;
  for (char c : text) {
    switch (c) {
      case '&': escaped += "&amp;"; break;
      case '<': escaped += "&lt;"; break;
      case '>': escaped += "&gt;"; break;
      case '"': escaped += "&quot;"; break;
      default: escaped += c;
    }
  }
  return escaped;
}

std::string title_of(const histogram_result& result) {
  if (result.input.empty() || result.input == "-") return "stdin";
  const auto slash = result.input.find_last_of('/');
  return slash == std::string::npos ? result.input : result.input.substr(slash + 1);
}

/// Maps data values to x and bin values to y in SVG units (y grows downwards).
struct chart_scale {
  bool log_x;
  double x_lo, x_hi, y_lo, y_hi;
  double x(double value) const {
    const double position = log_x ? std::log10(value) : value;
    const double lo = log_x ? std::log10(x_lo) : x_lo, hi = log_x ? std::log10(x_hi) : x_hi;
    return plot_left + (position - lo) / (hi - lo) * (plot_right - plot_left);
  }
  double y(double value) const { return plot_bottom - (value - y_lo) / (y_hi - y_lo) * (plot_bottom - plot_top); }
};

chart_scale scale_of(const histogram_result& result, const std::vector<tick>& y_ticks) {
  chart_scale scale{result.kind == binning_kind::log, result.edges.front(), result.edges.back(), 0.0, 1.0};
  // The y axis spans zero and every bin (weights may be negative), widened to the outer ticks.
  for (std::int64_t bin = 0; bin < result.bins(); ++bin) {
    scale.y_lo = std::min(scale.y_lo, result.value(bin));
    scale.y_hi = std::max(scale.y_hi, result.value(bin));
  }
  if (!y_ticks.empty()) {
    scale.y_lo = std::min(scale.y_lo, y_ticks.front().value);
    scale.y_hi = std::max(scale.y_hi, y_ticks.back().value);
  }
  return scale;
}

double value_range_max(const histogram_result& result) {
  double high = 0.0;
  for (std::int64_t bin = 0; bin < result.bins(); ++bin) high = std::max(high, result.value(bin));
  return high > 0.0 ? high : 1.0;
}

double value_range_min(const histogram_result& result) {
  double low = 0.0;
  for (std::int64_t bin = 0; bin < result.bins(); ++bin) low = std::min(low, result.value(bin));
  return low;
}

/// Horizontal lines at the value ticks, drawn first so that the bars cover them.
void write_grid(const chart_scale& scale, const std::vector<tick>& y_ticks, std::ostream& out) {
  out << "<g class=\"grid\" stroke=\"#ddd\">\n";
  for (const tick& mark : y_ticks)
    out << "<path d=\"M" << number(plot_left) << ' ' << number(scale.y(mark.value)) << " H" << number(plot_right)
        << "\"/>\n";
  out << "</g>\n";
}

void write_axes(const histogram_result& result, const chart_scale& scale, const std::vector<tick>& x_ticks,
                const std::vector<tick>& y_ticks, std::ostream& out) {
  // Axis lines and tick marks are paths, so that the only <rect> elements are the bars.
  out << "<path class=\"axis\" d=\"M" << number(plot_left) << ' ' << number(plot_top) << " V"
      << number(plot_bottom) << " H" << number(plot_right) << "\" fill=\"none\" stroke=\"#222\"/>\n";
  out << "<g class=\"x-ticks\" font-size=\"12\" text-anchor=\"middle\">\n";
  for (const tick& mark : x_ticks) {
    const double x = scale.x(mark.value);
    if (x < plot_left - 0.5 || x > plot_right + 0.5) continue;
    out << "<path d=\"M" << number(x) << ' ' << number(plot_bottom) << " v6\" stroke=\"#222\"/>"
        << "<text x=\"" << number(x) << "\" y=\"" << number(plot_bottom + 20) << "\">" << escape_xml(mark.label)
        << "</text>\n";
  }
  out << "</g>\n<g class=\"y-ticks\" font-size=\"12\" text-anchor=\"end\">\n";
  for (const tick& mark : y_ticks) {
    const double y = scale.y(mark.value);
    out << "<path d=\"M" << number(plot_left) << ' ' << number(y) << " h-6\" stroke=\"#222\"/>"
        << "<text x=\"" << number(plot_left - 10) << "\" y=\"" << number(y + 4) << "\">" << escape_xml(mark.label)
        << "</text>\n";
  }
  out << "</g>\n";
  const std::string x_label = result.kind == binning_kind::log ? "value (log scale)" : "value";
  out << "<text x=\"" << number((plot_left + plot_right) / 2) << "\" y=\"" << number(height - 20)
      << "\" font-size=\"13\" text-anchor=\"middle\">" << x_label << "</text>\n";
  out << "<text transform=\"translate(20 " << number((plot_top + plot_bottom) / 2)
      << ") rotate(-90)\" font-size=\"13\" text-anchor=\"middle\">" << value_name(result) << "</text>\n";
}

}  // namespace

void render_svg(const histogram_result& result, std::ostream& out) {
  const std::vector<tick> y_ticks = linear_ticks(value_range_min(result), value_range_max(result), 6, true);
  const double x_lo = result.edges.front(), x_hi = result.edges.back();
  const std::vector<tick> x_ticks =
      result.kind == binning_kind::log ? log_ticks(x_lo, x_hi, 8) : linear_ticks(x_lo, x_hi, 8);
  const chart_scale scale = scale_of(result, y_ticks);

  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" viewBox=\"0 0 " << width << ' ' << height << "\" font-family=\"sans-serif\">\n";
  out << "<title>Histogram of " << escape_xml(title_of(result)) << "</title>\n";
  out << "<text x=\"" << number(width / 2) << "\" y=\"28\" font-size=\"16\" text-anchor=\"middle\">Histogram of "
      << escape_xml(title_of(result)) << " (" << result.elements << " values, " << result.bins() << " bins)</text>\n";
  write_grid(scale, y_ticks, out);
  out << "<g class=\"bars\" fill=\"#4878a8\">\n";
  const double zero = scale.y(0.0);
  for (std::int64_t bin = 0; bin < result.bins(); ++bin) {
    const auto index = static_cast<std::size_t>(bin);
    const double x0 = scale.x(result.edges[index]), x1 = scale.x(result.edges[index + 1]);
    const double y = scale.y(result.value(bin));
    out << "<rect x=\"" << number(x0) << "\" y=\"" << number(std::min(y, zero)) << "\" width=\""
        << number(x1 - x0) << "\" height=\"" << number(std::fabs(zero - y)) << "\"><title>["
        << format_edge(result.edges[index], result.single_precision_edges) << ", "
        << format_edge(result.edges[index + 1], result.single_precision_edges)
        << (bin + 1 == result.bins() ? "]" : ")") << ": " << format_value(result, result.value(bin))
        << "</title></rect>\n";  // the last bin is closed
  }
  out << "</g>\n";
  write_axes(result, scale, x_ticks, y_ticks, out);
  out << "</svg>\n";
}

}  // namespace bkt::apps::histogram
