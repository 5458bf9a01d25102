// The whole run: an input that fits one chunk is sorted at once; a larger one takes the external
// sample sort (external_sort.hpp).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

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
  std::int64_t buckets = 0;      // more than one chunk: the external sort's buckets that held keys
  double read_seconds = 0;
  sort_times sort;
  double split_seconds = 0;      // the external sort's multisplit of the chunks into buckets
  double write_seconds = 0;
  double total_seconds = 0;
  // Under mpirun (sort_on_ranks.hpp): this rank's part of the input and slice of the output, and
  // on rank 0 every rank's phases (rank_phases_json), in rank order.
  std::int64_t part_elements = 0;
  std::int64_t slice_elements = 0;
  std::vector<nlohmann::json> ranks;
};

/// Sorts as `parsed` says into `output` (an output of the run's output_set, finished but not
/// committed); throws app_error (bad input, I/O) or bkt::error (GPU).
sort_report sort_file(const options& parsed, apps::output_file& output);

}  // namespace bkt::radixsort
