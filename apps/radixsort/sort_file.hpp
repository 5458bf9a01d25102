// The whole run: read the input in chunks, sort each, then write the one sorted chunk, or merge
// the sorted runs into the output.
#pragma once

#include <cstdint>
#include <string>

#include "chunk_sorter.hpp"
#include "bkt_apps/output_file.hpp"
#include "options.hpp"

namespace bkt::radixsort {

/// What happened, for --verbose and --json.
struct sort_report {
  std::string input;
  std::string output;
  std::string dtype;
  bool dtype_inferred = false;  // text without --dtype: the values chose it
  std::string device;  // the GPU's name, or "cpu"
  std::int64_t elements = 0;
  std::int64_t output_elements = 0;
  std::int64_t chunks = 0;
  std::int64_t chunk_items = 0;  // the most keys one chunk could hold
  std::int64_t spilled_runs = 0;
  double read_seconds = 0;
  sort_times sort;
  double merge_seconds = 0;
  double write_seconds = 0;
  double total_seconds = 0;
};

/// Sorts as `parsed` says into `output` (an output of the run's output_set, finished but not
/// committed); throws app_error (bad input, I/O) or bkt::error (GPU).
sort_report sort_file(const options& parsed, apps::output_file& output);

}  // namespace bkt::radixsort
