#include "render_json.hpp"

#include <cmath>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "number_format.hpp"

namespace bkt::apps::histogram {
namespace {

const char* kind_name(binning_kind kind) {
  switch (kind) {
    case binning_kind::log: return "log";
    case binning_kind::edges: return "edges";
    case binning_kind::even: break;
  }
  return "even";
}

// Counts stay integers in the JSON; weight sums are doubles.
nlohmann::ordered_json amount(const histogram_result& result, std::int64_t count, double weight) {
  return result.weighted() ? nlohmann::ordered_json(weight) : nlohmann::ordered_json(count);
}

}  // namespace

// ordered_json keeps the keys in the order written here, so that the document reads top-down.
void render_json(const histogram_result& result, std::ostream& out) {
  nlohmann::ordered_json edges = nlohmann::ordered_json::array();
  for (double edge : result.edges) {
    // As in the table: integer edges without a fraction (0, not 0.0), and single-precision edges as
    // the shortest decimal that reads back to the same float (0.1, not 0.10000000149011612).
    if (edge == std::floor(edge) && std::fabs(edge) < 9007199254740992.0)
      edges.push_back(static_cast<std::int64_t>(edge));
    else
      edges.push_back(std::stod(format_edge(edge, result.single_precision_edges)));
  }

  const outside_tally& outside = result.outside;
  nlohmann::ordered_json document = {
      {"input", result.input},
      {"weights", result.weighted() ? nlohmann::ordered_json(result.weights_input) : nlohmann::ordered_json(nullptr)},
      {"dtype", result.dtype},
      {"binned_as", result.binned_as},
      {"binning", kind_name(result.kind)},
      {"bins", result.bins()},
      {"edges", edges},
  };
  if (result.weighted())
    document["sums"] = result.sums;
  else
    document["counts"] = result.counts;
  const std::int64_t outside_count = outside.below + outside.above + outside.nan;
  document["outside"] = {
      {"below", amount(result, outside.below, outside.below_weight)},
      {"above", amount(result, outside.above, outside.above_weight)},
      {"nan", amount(result, outside.nan, outside.nan_weight)},
      {"total", amount(result, outside_count, result.outside_total())},
  };
  const auto in_range_count = result.elements - outside_count;
  document["totals"] = {
      {"in_range", amount(result, in_range_count, result.in_range_total())},
      {"outside", amount(result, outside_count, result.outside_total())},
      {"all", amount(result, result.elements, result.in_range_total() + result.outside_total())},
      {"elements", result.elements},
  };
  document["timing"] = {
      {"elements", result.elements},
      {"seconds", result.seconds},
      {"elements_per_second", result.seconds > 0.0 ? static_cast<double>(result.elements) / result.seconds : 0.0},
      {"device", result.device},
  };
  out << document.dump(2) << '\n';
}

}  // namespace bkt::apps::histogram
