// bkt-radixsort's command line, parsed.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

#include "bkt_apps/cli.hpp"
#include "bkt_apps/numeric_io.hpp"

namespace bkt::radixsort {

struct options {
  apps::input_options input;
  apps::output_options output;
  apps::common_flags common;
  bool argsort = false;  // write the sorting permutation (i64 input positions), not the keys
  bool descending = false;
  bool stable = true;            // accepted for clarity; the sort is always stable
  bool unique = false;           // keep the first of each run of keys with equal bits
  std::int64_t chunk_items = 0;  // 0: planned from device and host memory
  std::int64_t gpu_memory = 0;   // --gpu-memory: device bytes a chunk may plan for; 0: what is free
  std::string spill_dir;         // where the external sort's buckets go; empty: beside the output, else $TMPDIR
};

/// Adds every flag and the INPUT positional to `app`, parsing into `parsed`.
void add_options(CLI::App& app, options& parsed);

/// Checks what CLI11 cannot (throws a usage app_error) and derives the rest: raw output takes the
/// input's byte order.
void finish_options(options& parsed);

}  // namespace bkt::radixsort
