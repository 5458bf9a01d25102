// The runs themselves: the graph's weight type is fixed once (std::visit), then each source of
// this rank's block runs on the GPU solver built for the graph, or on the CPU reference, and is
// checked and written; with several ranks, rank 0 then gathers every rank's runs.
#include "run_sources.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>

#include "bkt/gpu.hpp"
#include "bkt/stream.hpp"
#include "bkt_apps/app_error.hpp"
#include "bkt_apps/progress.hpp"
#include "bkt_apps/stopwatch.hpp"
#include "io/sources.hpp"
#include "io/write_distances.hpp"
#include "reference/compare.hpp"
#include "reference/dijkstra.hpp"
#include "reference/parents.hpp"

namespace bkt::sssp::tool {
namespace {

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
    if (wants_gpu && !on_gpu_ && !parsed.common.cpu && !parsed.algorithm_given && parsed.common.verbose)
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

  /// `files`: where this source's distances go (written the first time a source comes), or null.
  source_run run(vertex source, distance_files* files) {
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
      const apps::stopwatch start;
      distances = ref::dijkstra(graph_, source);
      result.milliseconds = 1e3 * start.seconds();
    }
    summarize_distances<distance>(distances, result);
    if (result.milliseconds > 0)
      result.gteps = static_cast<double>(graph_.num_edges()) / (result.milliseconds * 1e-3) / 1e9;
    if (files != nullptr) {
      if (!files->written) write(source, distances, *files);
      files->written = true;
      result.output = files->path;
    }
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

  void write(vertex source, const std::vector<distance>& distances, const distance_files& files) const {
    std::vector<std::int64_t> parents;
    if (parsed_.parents) parents = ref::parents_from_distances<distance>(graph_, distances, source);
    write_distances<distance>(files, distances, parents, source, loaded_.index_base);
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

/// A distance for the trip to rank 0: its type and its exact bits (JSON would round-trip a
/// double too, but not an infinity).
nlohmann::json distance_bits(const distance_value& distance) {
  if (const auto* whole = std::get_if<std::uint64_t>(&distance)) return {{"u64", *whole}};
  return {{"f64", std::bit_cast<std::uint64_t>(std::get<double>(distance))}};
}

distance_value distance_from_bits(const nlohmann::json& json) {
  if (json.contains("u64")) return json.at("u64").get<std::uint64_t>();
  return std::bit_cast<double>(json.at("f64").get<std::uint64_t>());
}

/// This rank's runs and run time, as one message.
std::string encode_runs(const run_report& report) {
  nlohmann::json runs = nlohmann::json::array();
  for (const source_run& run : report.sources)
    runs.push_back({{"source", run.source}, {"reached", run.reached}, {"checksum", distance_bits(run.checksum)},
                    {"max_distance", distance_bits(run.max_distance)}, {"milliseconds", run.milliseconds},
                    {"gteps", run.gteps}, {"algorithm", run.algorithm}, {"rounds", run.rounds},
                    {"relaxed_edges", run.relaxed_edges}, {"output", run.output}});
  return nlohmann::json{{"runs", runs}, {"run_seconds", report.run_seconds}}.dump();
}

/// After every rank has succeeded, rank 0's report takes every rank's runs in rank order (the
/// list's order, the blocks being contiguous) and the longest run time.
void gather_sources(run_report& report, apps::rank_context& ranks) {
  const std::string mine = encode_runs(report);
  ranks.require_all_succeeded();  // nothing that can fail between this agreement and the gather
  const std::vector<std::string> gathered = ranks.gather_to_root(mine);
  if (!ranks.is_root()) return;
  report.sources.clear();
  for (const std::string& text : gathered) {
    const nlohmann::json rank_runs = nlohmann::json::parse(text);
    report.run_seconds = std::max(report.run_seconds, rank_runs.at("run_seconds").get<double>());
    for (const nlohmann::json& json : rank_runs.at("runs")) {
      source_run run;
      run.source = json.at("source").get<std::int64_t>();
      run.reached = json.at("reached").get<std::int64_t>();
      run.checksum = distance_from_bits(json.at("checksum"));
      run.max_distance = distance_from_bits(json.at("max_distance"));
      run.milliseconds = json.at("milliseconds").get<double>();
      run.gteps = json.at("gteps").get<double>();
      run.algorithm = json.at("algorithm").get<std::string>();
      run.rounds = json.at("rounds").get<std::int64_t>();
      run.relaxed_edges = json.at("relaxed_edges").get<std::int64_t>();
      run.output = json.at("output").get<std::string>();
      report.sources.push_back(std::move(run));
    }
  }
}

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

source_block block_of_rank(std::int64_t num_sources, int rank, int num_ranks) {
  const std::int64_t share = num_sources / num_ranks, extra = num_sources % num_ranks;
  const std::int64_t begin = rank * share + std::min<std::int64_t>(rank, extra);
  return {begin, begin + share + (rank < extra ? 1 : 0)};
}

run_report run_sources(const options& parsed, const loaded_graph& loaded, apps::output_set& outputs,
                       apps::rank_context& ranks) {
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
        // Every rank chooses the same list (random sources draw from the same seed).
        const std::vector<vertex> sources = choose_sources(parsed, loaded, graph);
        check_output_for_sources(parsed, static_cast<std::int64_t>(sources.size()));
        const source_block block = block_of_rank(static_cast<std::int64_t>(sources.size()), ranks.rank(), ranks.size());
        // A source named twice is written once, by the rank that runs it first.
        std::map<vertex, std::int64_t> first_run;
        for (std::size_t i = 0; i < sources.size(); ++i) first_run.emplace(sources[i], static_cast<std::int64_t>(i));
        const auto path_of = [&](vertex source) {
          return output_path_for(parsed.output, static_cast<std::int64_t>(source) + loaded.index_base);
        };
        // This rank's files exist (as temporaries) before its first run: a bad path fails now.
        std::map<vertex, distance_files> files;
        if (!parsed.output.empty())
          for (std::int64_t i = block.begin; i < block.end; ++i) {
            const vertex source = sources[static_cast<std::size_t>(i)];
            if (first_run.at(source) == i) files.emplace(source, add_distance_files(outputs, path_of(source), parsed.parents));
          }
        const apps::stopwatch start;
        if (block.begin < block.end) {
          graph_runner<weight> runner(parsed, loaded, graph, report);
          std::optional<apps::progress_bar> progress;
          if (ranks.is_root()) progress.emplace("sssp", block.end - block.begin);
          for (std::int64_t i = block.begin; i < block.end; ++i) {
            const vertex source = sources[static_cast<std::size_t>(i)];
            const auto found = files.find(source);
            source_run run = runner.run(source, found == files.end() ? nullptr : &found->second);
            if (found == files.end() && !parsed.output.empty()) run.output = path_of(source);  // another rank's file
            report.sources.push_back(std::move(run));
            if (progress) progress->update(i - block.begin + 1);
          }
        }
        report.run_seconds = start.seconds();
      },
      loaded.graph);
  if (ranks.several()) gather_sources(report, ranks);
  return report;
}

}  // namespace bkt::sssp::tool
