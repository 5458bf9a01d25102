#include "render_table.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

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

void render_table(const histogram_result& result, std::ostream& out) {
  using row = std::array<std::string, 4>;
  std::vector<row> rows;
  rows.reserve(static_cast<std::size_t>(result.bins()) + 1);
  rows.push_back({"lower", "upper", value_name(result), "fraction"});
  const double total = result.in_range_total();
  for (std::int64_t bin = 0; bin < result.bins(); ++bin) {
    const double value = result.value(bin);
    const auto index = static_cast<std::size_t>(bin);
    rows.push_back({format_edge(result.edges[index], result.single_precision_edges),
                    format_edge(result.edges[index + 1], result.single_precision_edges), format_value(result, value),
                    format_fraction(total != 0.0 ? value / total : 0.0)});
  }
  std::array<std::size_t, 4> widths{};
  for (const row& cells : rows)
    for (std::size_t column = 0; column < cells.size(); ++column)
      widths[column] = std::max(widths[column], cells[column].size());
  for (const row& cells : rows) {
    std::string line;
    for (std::size_t column = 0; column < cells.size(); ++column) {
      if (column > 0) line += "  ";
      line.append(widths[column] - cells[column].size(), ' ');
      line += cells[column];
    }
    out << line << '\n';
  }
  out << summary_line(result) << '\n';
}

}  // namespace bkt::apps::histogram
