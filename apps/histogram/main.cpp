// bkt-histogram: histograms of large numeric files on the GPU (or the CPU). This file only parses
// the command line, runs, and maps failures to exit codes (bkt::apps::run_tool).
#include <CLI/CLI.hpp>

#include "compute.hpp"
#include "options.hpp"
#include "outputs.hpp"

int main(int argc, char** argv) {
  using namespace bkt::apps::histogram;
  options opts;
  CLI::App app;
  app.name("bkt-histogram");
  add_options(app, opts);
  return bkt::apps::run_tool("bkt-histogram", app, argc, argv, opts.common, [&] {
    check_options(opts);
    histogram_outputs outputs(opts);
    outputs.write(compute_histogram(opts));
  });
}
