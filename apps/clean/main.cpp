// bkt-clean: CLEAN deconvolution of radio images (FITS), on the GPU or the CPU. This file only
// parses the command line, runs, and maps failures to exit codes (bkt::apps::run_tool).
#include <CLI/CLI.hpp>

#include <cstdio>

#include "options.hpp"
#include "run_clean.hpp"

int main(int argc, char** argv) {
  using namespace bkt::clean;
  options opts;
  CLI::App app;
  app.name("bkt-clean");
  add_options(app, opts);
  return bkt::apps::run_tool("bkt-clean", app, argc, argv, opts.common, [&] {
    check_options(opts);
    const run_summary summary = run_clean(opts);
    bkt::apps::write_json_summary(opts.common, summary_json(summary));
    // With --json - the JSON takes standard output in place of the text summary.
    if (opts.common.json_path != "-") std::fputs(format_summary(summary).c_str(), stdout);
  });
}
