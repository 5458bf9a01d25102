#include "render_bars.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "number_format.hpp"
#include "render_table.hpp"

namespace bkt::apps::histogram {
namespace {

// U+2588 FULL BLOCK, then U+258F .. U+2589: one to seven eighths of a column.
constexpr const char* full_block = "\u2588";
constexpr const char* eighth_blocks[8] = {"", "\u258f", "\u258e", "\u258d", "\u258c", "\u258b", "\u258a", "\u2589"};

std::string bar(double fraction, int bar_columns) {
  const auto eighths = static_cast<long>(std::lround(std::clamp(fraction, 0.0, 1.0) * bar_columns * 8));
  std::string text;
  for (long column = 0; column < eighths / 8; ++column) text += full_block;
  text += eighth_blocks[eighths % 8];
  const long drawn = eighths / 8 + (eighths % 8 != 0 ? 1 : 0);
  text.append(static_cast<std::size_t>(std::max(0L, bar_columns - drawn)), ' ');
  return text;
}

}  // namespace

int output_columns() {
  winsize size{};
  if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  if (const char* columns = std::getenv("COLUMNS")) {
    const int value = std::atoi(columns);
    if (value > 0) return value;
  }
  return 80;
}

// Bin i is [lower, upper), the last one [lower, upper] (closed, as in NumPy). Two passes, the first
// only to measure, so that no label is kept.
void render_bars(const histogram_result& result, int columns, std::ostream& out) {
  auto label_of = [&](std::int64_t bin) {
    const auto index = static_cast<std::size_t>(bin);
    // Appended piece by piece: "[" + std::string&& trips a false -Wrestrict in GCC 12.
    std::string label = "[";
    label += format_edge(result.edges[index], result.single_precision_edges);
    label += ", ";
    label += format_edge(result.edges[index + 1], result.single_precision_edges);
    label += bin + 1 == result.bins() ? "]" : ")";
    return label;
  };
  std::size_t label_width = 0, value_width = 0;
  double largest = 0.0;
  for (std::int64_t bin = 0; bin < result.bins(); ++bin) {
    label_width = std::max(label_width, label_of(bin).size());
    value_width = std::max(value_width, format_value(result, result.value(bin)).size());
    largest = std::max(largest, std::fabs(result.value(bin)));
  }
  // Label, two spaces, bar, two spaces, value; the bar gets what is left, but at least 10 columns.
  const int bar_columns = std::max(10, columns - static_cast<int>(label_width + value_width) - 4);
  for (std::int64_t bin = 0; bin < result.bins(); ++bin) {
    const std::string label = label_of(bin), value = format_value(result, result.value(bin));
    const double fraction = largest > 0.0 ? std::fabs(result.value(bin)) / largest : 0.0;
    out << label << std::string(label_width - label.size() + 2, ' ') << bar(fraction, bar_columns) << "  "
        << std::string(value_width - value.size(), ' ') << value << '\n';
  }
  out << summary_line(result) << '\n';
}

}  // namespace bkt::apps::histogram
