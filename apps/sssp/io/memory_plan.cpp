// The byte counts follow what the loader holds at each step: parsed_edges.hpp's chunks (source,
// target and weight, 4 bytes each), build_csr.cpp's peak (its input, 12 bytes per CSR entry and a
// 4-byte row id per entry), and graph.hpp's CSR (8-byte offsets, 4-byte targets and weights).
#include "io/memory_plan.hpp"

#include <algorithm>
#include <limits>

namespace bkt::sssp::detail {
namespace {

/// A byte count worked out in doubles, saturated: the counts come from untrusted headers (up to 2^64).
std::int64_t saturate(double bytes) {
  constexpr double most = static_cast<double>(std::numeric_limits<std::int64_t>::max());
  return bytes >= most ? std::numeric_limits<std::int64_t>::max() : static_cast<std::int64_t>(bytes);
}

}  // namespace

std::int64_t csr_run_bytes(std::int64_t vertices, std::int64_t edges) {
  const double n = static_cast<double>(vertices), m = static_cast<double>(edges);
  return saturate(8 * (n + 1) + 8 * m + run_bytes_per_vertex * n);
}

std::int64_t graph_peak_bytes(const graph_size& size) {
  const double n = static_cast<double>(size.vertices);
  const double input_edges = static_cast<double>(size.input_edges);
  const double csr_edges = size.add_reverse ? 2 * input_edges : input_edges;
  const double parsed = input_edges * (size.keep_weights ? 12 : 8);
  const double parsing = static_cast<double>(size.text_bytes) + parsed;
  const double building = parsed + 12 * csr_edges + 8 * (n + 1);
  const double running = 8 * (n + 1) + 8 * csr_edges + run_bytes_per_vertex * n;
  return saturate(std::max({parsing, building, running}));
}

}  // namespace bkt::sssp::detail
