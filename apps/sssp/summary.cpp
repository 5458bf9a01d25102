// The table is built as strings first so that every column can be as wide as its widest cell.
#include "summary.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#ifndef BKT_VERSION
#define BKT_VERSION "unknown"
#endif

namespace bkt::sssp::tool {
namespace {

constexpr std::size_t num_columns = 7;
using table_row = std::array<std::string, num_columns>;

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

nlohmann::json distance_json(const distance_value& distance) {
  return std::visit([](auto value) { return nlohmann::json(value); }, distance);
}

double megabytes_per_second(const run_report& report) {
  return report.load_seconds > 0 ? static_cast<double>(report.input_bytes) / 1e6 / report.load_seconds : 0.0;
}

}  // namespace

void print_summary(const run_report& report, std::FILE* stream) {
  std::vector<table_row> rows{{"source", "reached", "checksum", "max distance", "time ms", "GTEPS", "algorithm"}};
  for (const source_run& run : report.sources)
    rows.push_back({std::to_string(run.source), std::to_string(run.reached), distance_text(run.checksum),
                    distance_text(run.max_distance), fixed(run.milliseconds, 3), fixed(run.gteps, 3), run.algorithm});
  std::array<std::size_t, num_columns> widths{};
  for (const table_row& row : rows)
    for (std::size_t c = 0; c < num_columns; ++c) widths[c] = std::max(widths[c], row[c].size());
  for (const table_row& row : rows) {
    std::string line;
    for (std::size_t c = 0; c + 1 < num_columns; ++c)  // numbers right-aligned
      line += std::string(widths[c] - row[c].size() + (c == 0 ? 0 : 2), ' ') + row[c];
    line += "  " + row[num_columns - 1];  // the algorithm's name left-aligned, last
    std::fprintf(stream, "%s\n", line.c_str());
  }
  std::fprintf(stream, "graph: %s: %lld vertices, %lld edges (%s weights), loaded in %.3f s (%.1f MB/s), %s\n",
               report.graph_path.c_str(), static_cast<long long>(report.num_vertices),
               static_cast<long long>(report.num_edges), report.weight_type.c_str(), report.load_seconds,
               megabytes_per_second(report), report.from_cache ? "from cache" : "parsed");
}

nlohmann::json summary_json(const run_report& report) {
  nlohmann::json sources = nlohmann::json::array();
  for (const source_run& run : report.sources)
    sources.push_back({{"source", run.source},
                       {"reached", run.reached},
                       {"checksum", distance_json(run.checksum)},
                       {"max_distance", distance_json(run.max_distance)},
                       {"milliseconds", run.milliseconds},
                       {"gteps", run.gteps},
                       {"algorithm", run.algorithm},
                       {"rounds", run.rounds},
                       {"relaxed_edges", run.relaxed_edges},
                       {"output", run.output.empty() ? nlohmann::json() : nlohmann::json(run.output)}});
  return {
      {"tool", "bkt-sssp"},
      {"version", BKT_VERSION},
      {"graph",
       {{"path", report.graph_path},
        {"format", report.format},
        {"vertices", report.num_vertices},
        {"edges", report.num_edges},
        {"weights", report.weight_type},
        {"symmetric", report.symmetric},
        {"index_base", report.index_base},
        {"from_cache", report.from_cache},
        {"cache_path", report.cache_path.empty() ? nlohmann::json() : nlohmann::json(report.cache_path)},
        {"input_bytes", report.input_bytes},
        {"load_seconds", report.load_seconds},
        {"megabytes_per_second", megabytes_per_second(report)}}},
      {"device", report.device},
      {"algorithm", report.algorithm},
      {"delta", report.delta ? distance_json(*report.delta) : nlohmann::json()},
      {"delta_reason", report.delta_reason.empty() ? nlohmann::json() : nlohmann::json(report.delta_reason)},
      {"verified", report.verified},
      {"sources", sources},
      {"seconds",
       {{"load", report.load_seconds},
        {"run", report.run_seconds},
        {"total", report.load_seconds + report.run_seconds}}},
  };
}

}  // namespace bkt::sssp::tool
