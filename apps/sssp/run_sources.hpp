// Shortest paths from each chosen source of a loaded graph: on the GPU (one solver for all
// sources) or with the CPU reference, optionally verified, with the distances written per source;
// under mpirun the sources are spread over the ranks, one GPU each.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "bkt_apps/output_set.hpp"
#include "bkt_apps/ranks.hpp"
#include "io/load_graph.hpp"
#include "options.hpp"

namespace bkt::sssp::tool {

/// A distance as the graph's weights make it: uint64 for integer weights, double for floats.
using distance_value = std::variant<std::uint64_t, double>;

/// A distance as text: the number (doubles to the digits that read back the same), or "inf"
/// for unreachable<>().
std::string distance_text(const distance_value& distance);

/// One source's run.
struct source_run {
  std::int64_t source = 0;   // in the file's numbering
  std::int64_t reached = 0;  // vertices at a finite distance, the source included
  distance_value checksum;   // sum of the finite distances
  distance_value max_distance;
  double milliseconds = 0;  // GPU: the solver's CUDA-event time; CPU: wall time of Dijkstra
  double gteps = 0;         // graph edges / time / 1e9 (the GAP suite's convention)
  std::string algorithm;
  std::int64_t rounds = 0;         // GPU only
  std::int64_t relaxed_edges = 0;  // GPU only
  std::string output;              // the distance file written; empty: none
};

/// Everything the summary shows.
struct run_report {
  std::string graph_path;
  std::string format;
  std::string weight_type;  // "u32" or "f32"
  std::int64_t num_vertices = 0;
  std::int64_t num_edges = 0;
  int index_base = 0;
  bool symmetric = false;
  bool from_cache = false;
  std::string cache_path;
  std::int64_t input_bytes = 0;
  double load_seconds = 0;
  std::string device;                   // the GPU's name, or "cpu"
  std::string algorithm;                // as run: dijkstra-cpu on the CPU
  std::optional<distance_value> delta;  // the bucket width, when the algorithm uses one
  std::string delta_reason;             // empty when no delta is used
  bool verified = false;                // every GPU run was compared with the reference
  std::vector<source_run> sources;
  double run_seconds = 0;  // wall time of all runs, the graph's upload and the outputs included
};

/// The sources that rank `rank` of `num_ranks` runs: a contiguous block [begin, end) of the
/// chosen list, the first (num_sources % num_ranks) ranks taking one more, so rank 0's is never
/// empty and the blocks in rank order are the list in order.
struct source_block {
  std::int64_t begin = 0;
  std::int64_t end = 0;
};
source_block block_of_rank(std::int64_t num_sources, int rank, int num_ranks);

/// Runs the sources the options choose on `graph` (loaded from parsed.graph_path) and writes
/// each source's distances into `outputs`, the run's output set: every file is created before
/// the first source runs, and shown only by the caller's commit (ranks.commit_together), so a
/// failure on any source leaves none of them. With several ranks each runs its block
/// (block_of_rank) and writes the files of the sources it runs first; then the ranks agree
/// (a failure anywhere throws apps::ranks_failed on all) and rank 0's report gathers every
/// source in list order, the others' keep their own. Throws app_error for bad sources, a
/// --verify mismatch and I/O failures, a usage error for a bad --source or --delta, and
/// bkt::error for CUDA failures.
run_report run_sources(const options& parsed, const loaded_graph& graph, apps::output_set& outputs,
                       apps::rank_context& ranks);

}  // namespace bkt::sssp::tool
