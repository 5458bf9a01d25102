// bkt-radixsort's flags and their help texts: the policies the help states are the tool's contract.
#include "options.hpp"

#include <limits>

#include "bkt_apps/memory_limit.hpp"
#include "bkt_apps/number_options.hpp"

namespace bkt::radixsort {

void add_options(CLI::App& app, options& parsed) {
  app.add_option("INPUT", parsed.input.path, "input file; '-' or none: standard input")->type_name("");
  apps::add_output_flags(app, parsed.output);
  apps::add_input_flags(app, parsed.input);
  app.add_flag("--argsort", parsed.argsort,
               "write the stable sorting permutation instead of the keys: the 0-based input position of "
               "each key in sorted order, as i64 (text: one index per line)");
  app.add_flag("--descending", parsed.descending, "largest first (equal keys still keep their input order)");
  app.add_flag("--stable", parsed.stable, "accepted for clarity: the sort is always stable");
  app.add_flag("--unique", parsed.unique,
               "keep only the first of each run of equal keys; keys are equal when their bits are, so -0.0 "
               "and +0.0 stay apart, and so do NaNs with different bits (with --argsort: the index of each "
               "first occurrence)");
  app.add_option("--chunk-items", parsed.chunk_items,
                 "advanced: read and sort at most N elements at a time (default: as many as device and host "
                 "memory hold); a larger input takes the external sort: sampled, split into buckets on "
                 "disk, each bucket sorted")
      ->type_name("N")
      ->transform(bkt::apps::whole_number(1));
  app.add_option_function<std::string>(
         "--gpu-memory",
         [&parsed](const std::string& text) {
           const auto bytes = bkt::apps::parse_size(text);
           if (!bytes || *bytes < 1) throw CLI::ValidationError("--gpu-memory", "'" + text + "' is not a size such as 2G");
           parsed.gpu_memory = *bytes;
         },
         "device memory the sort may plan for, e.g. 2G or 512M (default: what is free); an input larger "
         "than it takes the external sort")
      ->type_name("SIZE");
  app.add_option("--spill-dir", parsed.spill_dir,
                 "directory for the external sort's temporary file of buckets (default: the output's "
                 "directory, or $TMPDIR for standard output); it is deleted when the run ends")
      ->type_name("DIR");
  apps::add_common_flags(app, parsed.common, "bkt-radixsort");
  app.footer(
      "Order: integers numerically; floats in the total order -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN "
      "(NaNs by their bits). The sort is stable in both directions. Text output of floats reads back to the "
      "same value (a NaN's payload is lost in text; use npy or raw to keep it).\n"
      "--json FILE: {tool, input, output, dtype, dtype_inferred, elements, output_elements, device, chunks, chunk_items, "
      "buckets, seconds: {read, upload, sort, download, split, write, total}, elements_per_second}; the "
      "upload and download times are 0 on the CPU.\n"
      "Exit status: 0 ok, 1 bad input or I/O failure, 2 usage error, 3 GPU failure or out of device memory.");
}

void finish_options(options& parsed) {
  parsed.output.order = parsed.input.order;
  apps::check_json_destination(parsed.common, parsed.output);
}

}  // namespace bkt::radixsort
