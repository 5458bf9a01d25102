#include "render_table.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "number_format.hpp"

namespace bkt::apps::histogram {

std::string summary_line(const histogram_result& result) {
  auto text = [&](double value) { return format_value(result, value); };
  std::string line = "in range: " + text(result.in_range_total()) + "  outside: " + text(result.outside_total()) +
                     " (below " + text(result.below()) + ", above " + text(result.above()) + ", NaN " +
                     text(result.nan()) + ")  total: " + text(result.in_range_total() + result.outside_total());
  if (result.weighted()) line += "  elements: " + std::to_string(result.elements);
  return line;
}

// Two passes over the bins, the first only to measure the columns, so that no row is kept: a table
// of 2^24 bins is then the text itself and nothing more.
void render_table(const histogram_result& result, std::ostream& out) {
  const double total = result.in_range_total();
  auto cells = [&](std::int64_t bin) {
    const double value = result.value(bin);
    const auto index = static_cast<std::size_t>(bin);
    return std::array<std::string, 4>{format_edge(result.edges[index], result.single_precision_edges),
                                      format_edge(result.edges[index + 1], result.single_precision_edges),
                                      format_value(result, value), format_fraction(total != 0.0 ? value / total : 0.0)};
  };
  const std::array<std::string, 4> header{"lower", "upper", value_name(result), "fraction"};
  std::array<std::size_t, 4> widths{};
  auto measure = [&](const std::array<std::string, 4>& row) {
    for (std::size_t column = 0; column < row.size(); ++column) widths[column] = std::max(widths[column], row[column].size());
  };
  measure(header);
  for (std::int64_t bin = 0; bin < result.bins(); ++bin) measure(cells(bin));
  std::string line;
  auto write = [&](const std::array<std::string, 4>& row) {
    line.clear();
    for (std::size_t column = 0; column < row.size(); ++column) {
      if (column > 0) line += "  ";
      line.append(widths[column] - row[column].size(), ' ');
      line += row[column];
    }
    out << line << '\n';
  };
  write(header);
  for (std::int64_t bin = 0; bin < result.bins(); ++bin) write(cells(bin));
  out << summary_line(result) << '\n';
}

}  // namespace bkt::apps::histogram
