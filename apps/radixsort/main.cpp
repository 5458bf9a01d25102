// bkt-radixsort: sorts a column of numbers (raw, npy or text) stably, on the GPU when there is one,
// in chunks merged on the host when the input is larger than the GPU's memory.
#include <CLI/CLI.hpp>

#include "bkt_apps/output_set.hpp"
#include "options.hpp"
#include "sort_file.hpp"
#include "summary.hpp"

int main(int argc, char** argv) {
  CLI::App app(
      "Sorts one column of numbers stably (raw, .npy or text), on the GPU when there is one, else on the CPU.\n"
      "No INPUT or '-': standard input; no -o: standard output.",
      "bkt-radixsort");
  bkt::radixsort::options parsed;
  bkt::radixsort::add_options(app, parsed);
  return bkt::apps::run_tool("bkt-radixsort", app, argc, argv, parsed.common, [&] {
    bkt::radixsort::finish_options(parsed);
    // Every output is created now and shown only once all are written (bkt_apps/output_set.hpp).
    bkt::apps::output_set outputs;
    outputs.protect_input(parsed.input.path);
    bkt::apps::output_file& sorted = outputs.add(parsed.output.path);
    bkt::apps::output_file* json = bkt::apps::add_json_summary(outputs, parsed.common);
    const bkt::radixsort::sort_report report = bkt::radixsort::sort_file(parsed, sorted);
    if (parsed.common.verbose) bkt::radixsort::print_verbose_summary(report);
    bkt::apps::write_json_summary(json, bkt::radixsort::summary_json(report));
    outputs.commit_all();
  });
}
