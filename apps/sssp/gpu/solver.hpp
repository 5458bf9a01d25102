// Shortest paths on the GPU: the graph uploaded once, then any number of sources, each by
// delta-stepping (buckets formed by the library's multisplit), Near-Far or Bellman-Ford.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "graph.hpp"

namespace bkt::sssp {

enum class algorithm { delta_stepping, near_far, bellman_ford, dijkstra_cpu };

/// What one run did, beside the distances.
struct gpu_run_stats {
  double milliseconds = 0;           // GPU time of the run (CUDA events), without the distance download
  std::int64_t rounds = 0;           // relaxation rounds (each a frontier relaxed in parallel)
  std::int64_t frontier_vertices = 0;  // vertices whose edges were relaxed, summed over rounds
  std::int64_t relaxed_edges = 0;      // edges looked at, summed over rounds
};

/// The bucket width delta-stepping and Near-Far use unless told otherwise, and a sentence that
/// says how it was chosen (printed by --verbose and in the JSON summary).
template <edge_weight Weight>
struct delta_choice {
  distance_t<Weight> delta{};
  std::string reason;
};
template <edge_weight Weight>
delta_choice<Weight> default_delta(const csr_graph<Weight>& graph);

/// How delta-stepping drives its rounds. `persistent`: a queue shorter than 2^15 vertices goes to
/// one cooperative kernel that runs round after round without the host (high-diameter graphs run
/// thousands of short rounds); longer ones are split by multisplit in rounds the host drives.
/// `host`: every round is the host's. `automatic`: `host` for large graphs with hubs (where it
/// measured faster: their frontiers are long from the second round on), else `persistent`.
enum class round_mode { automatic, persistent, host };

/// Whether the graph is large and has hubs (its largest out-degree at least 16 times the mean):
/// the shape that both default_delta and round_mode::automatic go by.
template <edge_weight Weight>
bool large_with_hubs(const csr_graph<Weight>& graph);

/// The graph on the GPU and the work buffers for runs from any source; one stream.
template <edge_weight Weight>
class gpu_solver {
 public:
  /// Uploads `graph` (throws bkt::error on a CUDA failure, e.g. out of device memory).
  gpu_solver(const csr_graph<Weight>& graph, cudaStream_t stream, round_mode rounds = round_mode::automatic);
  ~gpu_solver();
  gpu_solver(gpu_solver&&) noexcept;
  gpu_solver& operator=(gpu_solver&&) noexcept;

  /// Distances from `source` into `distances` (host memory, num_vertices entries; unreachable<>()
  /// where the source does not reach). `delta` is used by delta_stepping and near_far.
  gpu_run_stats run(vertex source, algorithm method, distance_t<Weight> delta, std::span<distance_t<Weight>> distances);

 private:
  struct state;
  std::unique_ptr<state> state_;
};

}  // namespace bkt::sssp
