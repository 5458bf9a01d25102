// The fixture of the bkt-radixsort tests: a directory per test whose "io" folder holds the tool's
// files, and the built tool run as a user would (bkt_apps_test/tool_runner.hpp).
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "bkt_apps_test/temp_dir.hpp"
#include "bkt_apps_test/tool_runner.hpp"

namespace bkt::radixsort::test {

using tool_result = ::bkt::apps::test::tool_run;
using ::bkt::apps::test::read_file;
using ::bkt::apps::test::write_file;

class tool_test : public ::testing::Test {
 protected:
  tool_test() { std::filesystem::create_directory(dir_ / "io"); }  // the tool's own files go in here

  /// A path in the tool's directory.
  std::string path(const std::string& name) const { return (dir_ / "io" / name).string(); }
  std::string write(const std::string& name, const std::string& bytes) const {
    write_file(path(name), bytes);
    return path(name);
  }
  /// Names in the tool's directory: what a run left behind.
  std::vector<std::string> entries() const { return ::bkt::apps::test::temp_dir::names_in(dir_ / "io"); }

  /// Runs the tool; `stdin_file` empty means /dev/null.
  tool_result run(const std::vector<std::string>& args, const std::string& stdin_file = "") const {
    return ::bkt::apps::test::run_tool(BKT_RADIXSORT_EXE, args, {.standard_input_file = stdin_file});
  }

  const ::bkt::apps::test::temp_dir scratch_{"bkt-radixsort-test"};
  const std::filesystem::path dir_ = scratch_.path();
};

}  // namespace bkt::radixsort::test
