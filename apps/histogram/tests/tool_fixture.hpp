// The fixture of the bkt-histogram tests: a directory per test, removed afterwards, and the built
// tool run as a user would (bkt_apps_test/tool_runner.hpp), with the checks every failure makes.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bkt_apps_test/temp_dir.hpp"
#include "bkt_apps_test/tool_runner.hpp"

namespace histogram_test {

using tool_run = ::bkt::apps::test::tool_run;
using ::bkt::apps::test::lines_of;
using ::bkt::apps::test::read_file;
using ::bkt::apps::test::write_file;

/// Runs BKT_HISTOGRAM_EXE with `arguments`, feeding `standard_input`, with COLUMNS=`columns`.
tool_run run_histogram(const std::vector<std::string>& arguments, const std::string& standard_input = {},
                       int columns = 80);

/// The whitespace-separated fields of a line.
std::vector<std::string> fields_of(const std::string& line);

/// A fixture with a fresh scratch directory, and the checks every failure case makes.
class tool_test : public ::testing::Test {
 protected:
  std::filesystem::path path(const std::string& name) const { return directory_ / name; }
  /// The names in the scratch directory, sorted.
  std::vector<std::string> listing() const { return ::bkt::apps::test::temp_dir::names_in(directory_); }
  /// Exit code `code`, nothing on stdout, one line on stderr that starts "bkt-histogram: " and
  /// contains each of `needles`.
  static void expect_failure(const tool_run& run, int code, const std::vector<std::string>& needles) {
    ::bkt::apps::test::expect_one_line_failure(run, "bkt-histogram", code, needles);
  }
  /// Runs with --json - and parses what comes out; expects exit 0.
  static nlohmann::json run_json(std::vector<std::string> arguments, const std::string& standard_input = {});

  const ::bkt::apps::test::temp_dir scratch_{"bkt-histogram-test"};
  const std::filesystem::path directory_ = scratch_.path();
};

}  // namespace histogram_test
