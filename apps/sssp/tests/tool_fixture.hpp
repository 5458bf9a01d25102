// The fixture of the bkt-sssp tests: a directory per test whose "io" folder holds the tool's files,
// the built tool run as a user would (bkt_apps_test/tool_runner.hpp), the paths of the sample
// graphs, and the summary table read back.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "bkt_apps_test/temp_dir.hpp"
#include "bkt_apps_test/tool_runner.hpp"

namespace bkt::sssp::test {

/// A sample graph of data/graphs/ (BKT_DATA_DIR).
inline std::string data_graph(const std::string& name) { return std::string(BKT_DATA_DIR) + "/graphs/" + name; }

/// One line of the summary table, its fields as printed.
struct summary_row {
  std::string source, reached, checksum, max_distance, milliseconds, gteps, algorithm;
};

/// The rows of the summary table in `text` (the lines between the header and the "graph:" line).
inline std::vector<summary_row> summary_rows(const std::string& text) {
  std::vector<summary_row> rows;
  std::istringstream lines(text);
  bool in_table = false;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    summary_row row;
    fields >> row.source;
    if (row.source == "source") {
      in_table = true;
      continue;
    }
    if (!in_table || row.source == "graph:") {
      in_table = false;
      continue;
    }
    fields >> row.reached >> row.checksum >> row.max_distance >> row.milliseconds >> row.gteps >> row.algorithm;
    rows.push_back(row);
  }
  return rows;
}

/// The summary's last line, "graph: ...", or "" when there is none.
inline std::string graph_line(const std::string& text) {
  const std::size_t at = text.rfind("graph: ");
  return at == std::string::npos ? std::string() : text.substr(at, text.find('\n', at) - at);
}

using tool_result = ::bkt::apps::test::tool_run;
using ::bkt::apps::test::read_file;
using ::bkt::apps::test::write_file;

class tool_test : public ::bkt::apps::test::tool_dir_test {
 protected:
  /// Runs the tool; `stdin_file` empty means /dev/null; `environment` holds "NAME=VALUE" entries
  /// set in the child (CUDA_VISIBLE_DEVICES= hides every GPU).
  tool_result run(const std::vector<std::string>& args, const std::string& stdin_file = "",
                  const std::vector<std::string>& environment = {}) const {
    return ::bkt::apps::test::run_tool(BKT_SSSP_EXE, args,
                                       {.standard_input_file = stdin_file, .environment = environment});
  }
};

}  // namespace bkt::sssp::test
