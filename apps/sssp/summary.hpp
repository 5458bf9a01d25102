// The run's report as a table for people and as JSON for scripts.
#pragma once

#include <cstdio>
#include <nlohmann/json.hpp>

#include "run_sources.hpp"

namespace bkt::sssp::tool {

/// One aligned line per source (source, reached, checksum, max distance, time ms, GTEPS,
/// algorithm) under a header, then a line on the graph and its load.
void print_summary(const run_report& report, std::FILE* stream);

/// {tool, version, graph: {...}, device, algorithm, delta, delta_reason, verified, sources: [...],
///  seconds: {load, run, total}}, as the --help footer lists.
nlohmann::json summary_json(const run_report& report);

}  // namespace bkt::sssp::tool
