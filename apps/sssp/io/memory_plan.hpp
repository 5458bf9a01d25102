// How much host memory a graph takes to load and run, worked out from what its input implies (the
// vertex and edge counts of a header, the largest vertex id, the text's size) before anything that
// size is allocated, so that a tiny file naming vertex 2^31 is refused at once.
#pragma once

#include <cstdint>

namespace bkt::sssp::detail {

/// What an input implies about its graph.
struct graph_size {
  std::int64_t vertices = 0;
  std::int64_t input_edges = 0;  // edges in the file (a symmetric MatrixMarket entry counts once)
  bool add_reverse = false;      // --undirected or symmetric MatrixMarket: up to twice the edges in CSR
  bool keep_weights = true;      // false when random weights replace the file's
  std::int64_t text_bytes = 0;   // text held while the edges are parsed (a window for gzip)
};

/// Host bytes per vertex of the runs beside the CSR offsets: distances, the reference's distances
/// under --verify, parents, Boost's queue.
inline constexpr std::int64_t run_bytes_per_vertex = 32;

/// The largest number of vertices `budget` bytes can hold, at the offsets' 8 bytes and the runs'
/// run_bytes_per_vertex each: a vertex id at or past it is refused as soon as it is read.
constexpr std::int64_t affordable_vertices(std::int64_t budget) { return budget / (8 + run_bytes_per_vertex); }

/// The peak host bytes of parsing (text and parsed edges), building the CSR (the parsed edges,
/// the CSR's arrays and a row id per edge) and running (the CSR and the runs' arrays), whichever
/// is largest; saturates at INT64_MAX instead of overflowing.
std::int64_t graph_peak_bytes(const graph_size& size);

/// The host bytes of a CSR graph of `vertices` and `edges` (directed entries) and its runs.
std::int64_t csr_run_bytes(std::int64_t vertices, std::int64_t edges);

}  // namespace bkt::sssp::detail
