// bkt-histogram: histograms of large numeric files on the GPU (or the CPU). This file only parses
// the command line, runs, and maps failures to exit codes (bkt::apps::run_tool).
#include <CLI/CLI.hpp>

#include <optional>

#include "compute.hpp"
#include "options.hpp"
#include "bkt_apps/ranks.hpp"
#include "outputs.hpp"

int main(int argc, char** argv) {
  using namespace bkt::apps::histogram;
  options opts;
  CLI::App app;
  app.name("bkt-histogram");
  add_options(app, opts);
  return bkt::apps::run_tool("bkt-histogram", app, argc, argv, opts.common, [&](bkt::apps::rank_context& ranks) {
    check_options(opts);
    // Under mpirun every rank bins its part and rank 0 alone writes the outputs.
    std::optional<histogram_outputs> outputs;
    if (ranks.is_root()) outputs.emplace(opts);
    const histogram_result result = compute_histogram(opts, ranks);
    if (ranks.is_root()) outputs->write(result);
    bkt::apps::output_set none;
    ranks.commit_together(ranks.is_root() ? outputs->files() : none);
  });
}
