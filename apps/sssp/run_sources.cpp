// The runs themselves: the graph's weight type is fixed once (std::visit), then each source runs
// on the GPU solver built for the graph, or on the CPU reference, and is checked and written.
#include "run_sources.hpp"

#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <span>

#include "bkt/gpu.hpp"
#include "bkt/stream.hpp"
#include "bkt_apps/app_error.hpp"
#include "bkt_apps/progress.hpp"
#include "io/sources.hpp"
#include "io/write_distances.hpp"
#include "reference/compare.hpp"
#include "reference/dijkstra.hpp"
#include "reference/parents.hpp"

namespace bkt::sssp::tool {
namespace {

using clock = std::chrono::steady_clock;

double seconds_since(clock::time_point start) { return std::chrono::duration<double>(clock::now() - start).count(); }

/// The sources the options ask for, as internal vertex ids.
template <edge_weight Weight>
std::vector<vertex> choose_sources(const options& parsed, const loaded_graph& loaded, const csr_graph<Weight>& graph) {
  const source_choice& choice = parsed.sources;
  const std::int64_t num_vertices = graph.num_vertices();
  if (choice.vertex) return {source_from_user(*choice.vertex, loaded.index_base, num_vertices)};
  if (!choice.dimacs_file.empty()) return read_dimacs_sources(choice.dimacs_file, num_vertices);
  if (choice.random_count) {
    std::vector<vertex> drawn = random_sources(graph, *choice.random_count, parsed.seed);
    if (drawn.empty()) throw apps::app_error(parsed.graph_path + ": no vertex has an out-edge to draw a source from");
    return drawn;
  }
  if (num_vertices == 0) throw apps::app_error(parsed.graph_path + ": the graph has no vertex to start from");
  return {vertex{0}};
}

/// The bucket width for delta-stepping and Near-Far, and why.
template <edge_weight Weight>
delta_choice<Weight> resolve_delta(const options& parsed, const csr_graph<Weight>& graph) {
  using distance = distance_t<Weight>;
  if (!parsed.delta) return default_delta(graph);
  if constexpr (std::is_integral_v<distance>) {
    // Integer distances fall into buckets of a whole width; rounding would silently change it.
    if (*parsed.delta != std::floor(*parsed.delta) || *parsed.delta >= 0x1p63)
      throw apps::usage_error("--delta " + distance_text(*parsed.delta) +
                              ": the graph's weights are integers, so "
                              "delta must be a whole number");
  }
  return {static_cast<distance>(*parsed.delta), "given by --delta"};
}

/// Reached count, checksum and largest finite distance of one run.
template <class Distance>
void summarize_distances(std::span<const Distance> distances, source_run& run) {
  Distance sum{0}, largest{0};
  std::int64_t reached = 0;
  for (const Distance d : distances) {
    if (d == unreachable<Distance>()) continue;
    ++reached;
    sum += d;
    largest = std::max(largest, d);
  }
  run.reached = reached;
  run.checksum = sum;
  run.max_distance = largest;
}

/// Runs all sources of one graph whose weight type is now known.
template <edge_weight Weight>
class graph_runner {
 public:
  using distance = distance_t<Weight>;

  /// Picks the device and the delta (recorded in `report`) and uploads the graph to the GPU.
  graph_runner(const options& parsed, const loaded_graph& loaded, const csr_graph<Weight>& graph, run_report& report)
      : parsed_(parsed), loaded_(loaded), graph_(graph) {
    const bool wants_gpu = parsed.method != algorithm::dijkstra_cpu;
    on_gpu_ = wants_gpu && apps::use_gpu(parsed.common);
    if (wants_gpu && !on_gpu_ && !parsed.common.cpu && parsed.common.verbose)
      std::fprintf(stderr, "bkt-sssp: no usable GPU (%s): running Dijkstra on the CPU\n",
                   bkt::gpu_unavailable_reason().c_str());
    method_ = on_gpu_ ? parsed.method : algorithm::dijkstra_cpu;
    report.device = apps::device_label(on_gpu_);
    report.algorithm = std::string(algorithm_name(method_));
    report.verified = on_gpu_ && parsed.verify;
    if (method_ == algorithm::delta_stepping || method_ == algorithm::near_far) {
      const delta_choice<Weight> choice = resolve_delta(parsed, graph);
      delta_ = choice.delta;
      report.delta = choice.delta;
      report.delta_reason = choice.reason;
      if (parsed.common.verbose)
        std::fprintf(stderr, "bkt-sssp: delta %s: %s\n", distance_text(choice.delta).c_str(), choice.reason.c_str());
    }
    if (on_gpu_) {
      stream_ = std::make_unique<bkt::owned_stream>();
      solver_ = std::make_unique<gpu_solver<Weight>>(graph, stream_->get());
    }
  }

  source_run run(vertex source) {
    source_run result;
    result.source = static_cast<std::int64_t>(source) + loaded_.index_base;
    result.algorithm = std::string(algorithm_name(method_));
    std::vector<distance> distances;
    if (on_gpu_) {
      distances.resize(static_cast<std::size_t>(graph_.num_vertices()));
      const gpu_run_stats stats = solver_->run(source, method_, delta_, distances);
      result.milliseconds = stats.milliseconds;
      result.rounds = stats.rounds;
      result.relaxed_edges = stats.relaxed_edges;
      if (parsed_.verify) verify(source, distances);
    } else {
      const auto start = clock::now();
      distances = ref::dijkstra(graph_, source);
      result.milliseconds = 1e3 * seconds_since(start);
    }
    summarize_distances<distance>(distances, result);
    if (result.milliseconds > 0)
      result.gteps = static_cast<double>(graph_.num_edges()) / (result.milliseconds * 1e-3) / 1e9;
    if (!parsed_.output.empty()) result.output = write(source, result.source, distances);
    return result;
  }

 private:
  void verify(vertex source, const std::vector<distance>& got) const {
    const std::vector<distance> want = ref::dijkstra(graph_, source);
    const auto differs = ref::first_difference<distance>(got, want);
    if (!differs) return;
    const std::int64_t base = loaded_.index_base;
    throw apps::app_error(parsed_.graph_path + ": source " + std::to_string(source + base) + ": vertex " +
                          std::to_string(*differs + base) + ": gpu " + distance_text(got[*differs]) + ", reference " +
                          distance_text(want[*differs]));
  }

  std::string write(vertex source, std::int64_t file_source, const std::vector<distance>& distances) const {
    const std::string path = output_path_for(parsed_.output, file_source);
    std::vector<std::int64_t> parents;
    if (parsed_.parents) parents = ref::parents_from_distances<distance>(graph_, distances, source);
    write_distances<distance>(path, distances, parents, source, loaded_.index_base);
    return path;
  }

  const options& parsed_;
  const loaded_graph& loaded_;
  const csr_graph<Weight>& graph_;
  bool on_gpu_ = false;
  algorithm method_ = algorithm::dijkstra_cpu;
  distance delta_{1};
  std::unique_ptr<bkt::owned_stream> stream_;  // declared before the solver, so destroyed after it
  std::unique_ptr<gpu_solver<Weight>> solver_;
};

}  // namespace

std::string distance_text(const distance_value& distance) {
  return std::visit(
      [](auto value) -> std::string {
        if (value == unreachable<decltype(value)>()) return "inf";
        char text[32];
        const auto end = std::to_chars(text, text + sizeof text, value).ptr;  // shortest round trip
        return std::string(text, end);
      },
      distance);
}

run_report run_sources(const options& parsed, const loaded_graph& loaded) {
  run_report report;
  report.graph_path = parsed.graph_path;
  report.format = std::string(format_name(loaded.format));
  report.index_base = loaded.index_base;
  report.symmetric = loaded.symmetric;
  report.from_cache = loaded.from_cache;
  report.cache_path = loaded.cache_path;
  report.input_bytes = loaded.input_bytes;
  report.load_seconds = loaded.seconds;
  std::visit(
      [&](const auto& graph) {
        using weight = typename std::decay_t<decltype(graph.weights)>::value_type;
        report.weight_type = std::is_same_v<weight, float> ? "f32" : "u32";
        report.num_vertices = graph.num_vertices();
        report.num_edges = graph.num_edges();
        const std::vector<vertex> sources = choose_sources(parsed, loaded, graph);
        check_output_for_sources(parsed, static_cast<std::int64_t>(sources.size()));
        const auto start = clock::now();
        graph_runner<weight> runner(parsed, loaded, graph, report);
        apps::progress_bar progress("sssp", static_cast<std::int64_t>(sources.size()));
        for (std::size_t i = 0; i < sources.size(); ++i) {
          report.sources.push_back(runner.run(sources[i]));
          progress.update(static_cast<std::int64_t>(i) + 1);
        }
        report.run_seconds = seconds_since(start);
      },
      loaded.graph);
  return report;
}

}  // namespace bkt::sssp::tool
