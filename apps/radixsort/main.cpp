// bkt-radixsort: sorts a column of numbers (raw, npy or text) stably, on the GPU when there is one,
// in chunks merged on the host when the input is larger than the GPU's memory.
#include <CLI/CLI.hpp>

#include "bkt_apps/output_set.hpp"
#include "bkt_apps/ranks.hpp"
#include "options.hpp"
#include "sort_file.hpp"
#include "sort_on_ranks.hpp"
#include "summary.hpp"

int main(int argc, char** argv) {
  CLI::App app(
      "Sorts one column of numbers stably (raw, .npy or text), on the GPU when there is one, else on the CPU.\n"
      "No INPUT or '-': standard input; no -o: standard output.\n"
      "Under mpirun -np N each rank sorts its part of INPUT on its own GPU and writes its slice of the one "
      "output FILE (README.md, docs/tools/bkt-radixsort.md).",
      "bkt-radixsort");
  bkt::radixsort::options parsed;
  bkt::radixsort::add_options(app, parsed);
  return bkt::apps::run_tool("bkt-radixsort", app, argc, argv, parsed.common, [&](bkt::apps::rank_context& ranks) {
    bkt::radixsort::finish_options(parsed);
    // Every output is created now and shown only once all are written (bkt_apps/output_set.hpp);
    // under mpirun rank 0 makes them and the other ranks write into the sorted one.
    bkt::apps::output_set outputs;
    outputs.protect_input(parsed.input.path);
    bkt::apps::output_file* sorted = ranks.is_root() ? &outputs.add(parsed.output.path) : nullptr;
    bkt::apps::output_file* json = ranks.is_root() ? bkt::apps::add_json_summary(outputs, parsed.common) : nullptr;
    const bkt::radixsort::sort_report report = ranks.several()
                                                   ? bkt::radixsort::sort_on_ranks(parsed, sorted, ranks)
                                                   : bkt::radixsort::sort_file(parsed, *sorted);
    if (ranks.is_root()) {
      if (parsed.common.verbose) bkt::radixsort::print_verbose_summary(report);
      bkt::apps::write_json_summary(json, bkt::radixsort::summary_json(report));
    }
    ranks.commit_together(outputs);
  });
}
