// Runs the built bkt-histogram as a user would: arguments, standard input, captured standard
// output and error, exit code. Each test gets a scratch directory that is removed afterwards.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace histogram_test {

struct tool_run {
  int exit_code = -1;
  std::string out;
  std::string err;
};

/// Runs BKT_HISTOGRAM_EXE with `arguments`, feeding `standard_input`, with COLUMNS=`columns`.
tool_run run_histogram(const std::vector<std::string>& arguments, const std::string& standard_input = {},
                       int columns = 80);

/// The whole content of a file.
std::string read_file(const std::filesystem::path& path);
void write_file(const std::filesystem::path& path, const std::string& content);

/// The lines of `text`, without their newlines.
std::vector<std::string> lines_of(const std::string& text);

/// The whitespace-separated fields of a line.
std::vector<std::string> fields_of(const std::string& line);

/// A fixture with a fresh scratch directory, and the checks every failure case makes.
class tool_test : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
  std::filesystem::path path(const std::string& name) const { return directory_ / name; }
  /// The names in the scratch directory, sorted.
  std::vector<std::string> listing() const;
  /// Exit code `code`, nothing on stdout, one line on stderr that starts "bkt-histogram: " and
  /// contains each of `needles`.
  static void expect_failure(const tool_run& run, int code, const std::vector<std::string>& needles);
  /// Runs with --json - and parses what comes out; expects exit 0.
  static nlohmann::json run_json(std::vector<std::string> arguments, const std::string& standard_input = {});

  std::filesystem::path directory_;
};

}  // namespace histogram_test
