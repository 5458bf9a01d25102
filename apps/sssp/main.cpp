// bkt-sssp: single-source shortest paths on a graph file, on the GPU when there is one.
#include <CLI/CLI.hpp>
#include <cstdio>

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
  return load;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app(
      "Single-source shortest paths on a graph file, on the GPU when there is one, else with Dijkstra on the CPU.\n"
      "Sources: --source V, --sources FILE or --random-sources N; without one, the first vertex.",
      "bkt-sssp");
  bkt::sssp::tool::options parsed;
  bkt::sssp::tool::add_options(app, parsed);
  return bkt::apps::run_tool("bkt-sssp", app, argc, argv, parsed.common, [&] {
    bkt::sssp::tool::finish_options(parsed);
    const bkt::sssp::loaded_graph graph = bkt::sssp::load_graph(parsed.graph_path, load_options_of(parsed));
    const bkt::sssp::tool::run_report report = bkt::sssp::tool::run_sources(parsed, graph);
    // The table stays off standard output when the distances or the JSON go there.
    const bool stdout_taken = parsed.output == "-" || parsed.common.json_path == "-";
    bkt::sssp::tool::print_summary(report, stdout_taken ? stderr : stdout);
    bkt::apps::write_json_summary(parsed.common, bkt::sssp::tool::summary_json(report));
  });
}
