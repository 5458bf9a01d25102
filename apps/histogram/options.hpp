// bkt-histogram's command line: what to read, how to bin it, where the results go.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>

#include "bkt_apps/cli.hpp"
#include "bkt_apps/numeric_io.hpp"

namespace bkt::apps::histogram {

struct options {
  input_options input;  // the data; input.path from the positional INPUT ("-" or none: stdin)
  common_flags common;  // --cpu, --json FILE, --verbose, --version

  std::int64_t bins = 10;
  std::optional<double> range_lo, range_hi;  // --range LO:HI; absent: the data's min and max
  bool log = false;                          // --log: bins evenly spaced in log10
  std::string edges_path;                    // --edges FILE: bins between these edges instead

  std::string weights_path;                   // --weights FILE: sum these instead of counting
  std::optional<dtype> weights_type;          // --weights-dtype (raw weights): default --dtype
  std::optional<std::int64_t> weights_column; // --weights-column: default --column

  std::string output_path;  // -o: the table (or --bars chart); default standard output
  std::string plot_path;    // --plot FILE.png, .svg or .pdf
  bool bars = false;        // --bars: a terminal bar chart instead of the table

  std::int64_t chunk_items = std::int64_t{1} << 24;  // --chunk-items: elements read and binned at once

  bool range_given() const { return range_lo.has_value(); }
  bool weighted() const { return !weights_path.empty(); }
  /// The weights file's input options: the data's, but its own path, dtype and column when given.
  input_options weights_input() const;
};

/// Declares every option on `app`, parsed into `opts`.
void add_options(CLI::App& app, options& opts);

/// Checks what CLI11 cannot express (usage_error, exit 2): one of the two inputs at most on stdin,
/// the --json and table destinations, --plot's bin limit.
void check_options(const options& opts);

}  // namespace bkt::apps::histogram
