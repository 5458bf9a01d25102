// bkt-clean: CLEAN deconvolution of radio images (FITS), on the GPU or the CPU. This file only
// parses the command line, runs, and maps failures to exit codes (bkt::apps::run_tool).
#include <CLI/CLI.hpp>

#include <cstdio>
#include <new>
#include <string>

#include "bkt/error.hpp"
#include "bkt_apps/app_error.hpp"
#include "options.hpp"
#include "run_clean.hpp"

namespace {

/// Running out of memory names the image being cleaned: the run's size is that file's doing.
bkt::clean::run_summary run_naming_the_image(const bkt::clean::options& opts, bkt::apps::output_set& outputs,
                                             bkt::apps::rank_context& ranks) {
  try {
    return bkt::clean::run_clean(opts, outputs, ranks);
  } catch (const std::bad_alloc&) {
    throw bkt::apps::app_error(opts.dirty_path + ": out of host memory while deconvolving it (--max-memory SIZE "
                                                 "refuses such a run before it starts)");
  } catch (const bkt::error& e) {
    if (!e.out_of_memory()) throw;
    std::string message = opts.dirty_path + ": GPU out of memory while deconvolving it (--cpu runs it on the CPU): " +
                          e.what();
    if (opts.common.verbose && e.file() != nullptr)
      message += std::string(" (") + e.file() + ":" + std::to_string(e.line()) + ")";
    throw bkt::apps::app_error(message, bkt::apps::exit_gpu_failure);
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace bkt::clean;
  options opts;
  CLI::App app;
  app.name("bkt-clean");
  add_options(app, opts);
  return bkt::apps::run_tool("bkt-clean", app, argc, argv, opts.common, [&](bkt::apps::rank_context& ranks) {
    check_options(opts);
    // Every output goes through one set, shown only once all are written (bkt_apps/output_set.hpp).
    // Under mpirun rank 0 makes and writes them; the planes are spread over the ranks.
    bkt::apps::output_set outputs;
    bkt::apps::output_file* json = ranks.is_root() ? bkt::apps::add_json_summary(outputs, opts.common) : nullptr;
    const run_summary summary = run_naming_the_image(opts, outputs, ranks);
    if (ranks.is_root()) bkt::apps::write_json_summary(json, summary_json(summary));
    ranks.commit_together(outputs);
    // With --json - the JSON takes standard output in place of the text summary.
    if (ranks.is_root() && opts.common.json_path != "-") std::fputs(format_summary(summary).c_str(), stdout);
  });
}
