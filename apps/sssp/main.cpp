// bkt-sssp: single-source shortest paths on a graph file, on the GPU when there is one; under
// mpirun, the sources spread over the ranks.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <optional>

#include "bkt_apps/memory_limit.hpp"
#include "bkt_apps/output_set.hpp"
#include "bkt_apps/ranks.hpp"
#include "io/load_graph.hpp"
#include "options.hpp"
#include "run_sources.hpp"
#include "summary.hpp"

namespace {

bkt::sssp::load_options load_options_of(const bkt::sssp::tool::options& parsed) {
  bkt::sssp::load_options load;
  load.format = parsed.format;
  load.undirected = parsed.undirected;
  if (parsed.weight_lo) load.weights = bkt::sssp::random_weights{*parsed.weight_lo, *parsed.weight_hi, parsed.seed};
  load.cache_dir = parsed.cache_dir;
  load.use_cache = !parsed.no_cache;
  load.threads = parsed.threads;
  load.memory_budget = bkt::apps::host_memory_budget(parsed.common);
  load.verbose = parsed.common.verbose;
  return load;
}

/// The graph, loaded by every rank. Rank 0 loads first and alone may write the CSR cache; once
/// it has succeeded the others load, reading that cache when it was written: no two ranks ever
/// write the same cache file, and a bad graph file fails once, on rank 0.
bkt::sssp::loaded_graph load_on_ranks(const bkt::sssp::tool::options& parsed, bkt::apps::rank_context& ranks) {
  bkt::sssp::load_options load = load_options_of(parsed);
  if (!ranks.several()) return bkt::sssp::load_graph(parsed.graph_path, load);
  std::optional<bkt::sssp::loaded_graph> graph;
  if (ranks.is_root()) graph = bkt::sssp::load_graph(parsed.graph_path, load);
  ranks.require_all_succeeded();
  if (!ranks.is_root()) {
    load.write_cache = false;
    graph = bkt::sssp::load_graph(parsed.graph_path, load);
  }
  return std::move(*graph);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app(
      "Single-source shortest paths on a graph file, on the GPU when there is one, else with Dijkstra on the CPU.\n"
      "Sources: --source V, --sources FILE or --random-sources N; without one, the first vertex.\n"
      "Under mpirun -np N the sources are spread over N ranks, one GPU each (README.md).",
      "bkt-sssp");
  bkt::sssp::tool::options parsed;
  bkt::sssp::tool::add_options(app, parsed);
  return bkt::apps::run_tool("bkt-sssp", app, argc, argv, parsed.common, [&](bkt::apps::rank_context& ranks) {
    bkt::sssp::tool::finish_options(parsed);
    bkt::sssp::tool::check_device(parsed);
    // Every output goes through one set, shown only once all are written (bkt_apps/output_set.hpp)
    // on every rank (commit_together below).
    bkt::apps::output_set outputs;
    outputs.protect_input(parsed.graph_path);
    outputs.protect_input(parsed.sources.dimacs_file);
    // The summary is rank 0's, which gathers every rank's runs.
    bkt::apps::output_file* json = ranks.is_root() ? bkt::apps::add_json_summary(outputs, parsed.common) : nullptr;
    const bkt::sssp::loaded_graph graph = load_on_ranks(parsed, ranks);
    const bkt::sssp::tool::run_report report = bkt::sssp::tool::run_sources(parsed, graph, outputs, ranks);
    if (ranks.is_root()) {
      nlohmann::json summary = bkt::sssp::tool::summary_json(report);
      if (ranks.several()) summary["ranks"] = ranks.size();
      bkt::apps::write_json_summary(json, summary);
    }
    ranks.commit_together(outputs);
    // The table stays off standard output when the distances or the JSON go there.
    const bool stdout_taken = parsed.output == "-" || parsed.common.json_path == "-";
    if (ranks.is_root()) bkt::sssp::tool::print_summary(report, stdout_taken ? stderr : stdout);
  });
}
