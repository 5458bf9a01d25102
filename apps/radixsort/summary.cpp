// The report, as JSON for scripts and as lines for people.
#include "summary.hpp"

#include <cstdio>

#ifndef BKT_VERSION
#define BKT_VERSION "unknown"
#endif

namespace bkt::radixsort {

namespace {

/// The phases every run has, a rank's included.
nlohmann::json phase_seconds(const sort_report& report) {
  return {{"read", report.read_seconds},
          {"upload", report.sort.upload},
          {"sort", report.sort.sort},
          {"download", report.sort.download},
          {"write", report.write_seconds}};
}

}  // namespace

nlohmann::json rank_phases_json(const sort_report& report, int rank) {
  return {{"rank", rank},
          {"part_elements", report.part_elements},
          {"slice_elements", report.slice_elements},
          {"seconds", phase_seconds(report)}};
}

nlohmann::json summary_json(const sort_report& report) {
  const double rate = report.total_seconds > 0 ? static_cast<double>(report.elements) / report.total_seconds : 0.0;
  nlohmann::json summary = {
      {"tool", "bkt-radixsort"},
      {"version", BKT_VERSION},
      {"input", report.input},
      {"output", report.output},
      {"dtype", report.dtype},
      {"dtype_inferred", report.dtype_inferred},
      {"elements", report.elements},
      {"output_elements", report.output_elements},
      {"device", report.device},
      {"chunks", report.chunks},
      {"chunk_items", report.chunk_items},
      {"buckets", report.buckets},
      {"seconds", phase_seconds(report)},
      {"elements_per_second", rate},
  };
  summary["seconds"]["split"] = report.split_seconds;
  summary["seconds"]["total"] = report.total_seconds;
  if (!report.ranks.empty()) summary["ranks"] = report.ranks;
  return summary;
}

void print_verbose_summary(const sort_report& report) {
  std::fprintf(stderr, "bkt-radixsort: %lld %s%s elements from %s on %s, %lld chunk(s) of up to %lld, %lld bucket(s)\n",
               static_cast<long long>(report.elements), report.dtype.c_str(),
               report.dtype_inferred ? " (inferred from the text)" : "", report.input.c_str(),
               report.device.c_str(), static_cast<long long>(report.chunks), static_cast<long long>(report.chunk_items),
               static_cast<long long>(report.buckets));
  std::fprintf(stderr,
               "bkt-radixsort: read %.6f s, upload %.6f s, sort %.6f s, download %.6f s, split %.6f s, "
               "write %.6f s, total %.6f s\n",
               report.read_seconds, report.sort.upload, report.sort.sort, report.sort.download, report.split_seconds,
               report.write_seconds, report.total_seconds);
  for (const nlohmann::json& rank : report.ranks) {
    const nlohmann::json& seconds = rank["seconds"];
    std::fprintf(stderr,
                 "bkt-radixsort: rank %d: %lld elements in, %lld out; read %.6f s, upload %.6f s, sort %.6f s, "
                 "download %.6f s, write %.6f s\n",
                 rank["rank"].get<int>(), rank["part_elements"].get<long long>(),
                 rank["slice_elements"].get<long long>(), seconds["read"].get<double>(),
                 seconds["upload"].get<double>(), seconds["sort"].get<double>(), seconds["download"].get<double>(),
                 seconds["write"].get<double>());
  }
  std::fprintf(stderr, "bkt-radixsort: wrote %lld elements to %s\n", static_cast<long long>(report.output_elements),
               report.output.c_str());
}

}  // namespace bkt::radixsort
