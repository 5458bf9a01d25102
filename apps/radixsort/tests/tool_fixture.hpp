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

class tool_test : public ::bkt::apps::test::tool_dir_test {
 protected:
  /// Runs the tool; `stdin_file` empty means /dev/null.
  tool_result run(const std::vector<std::string>& args, const std::string& stdin_file = "") const {
    return ::bkt::apps::test::run_tool(BKT_RADIXSORT_EXE, args, {.standard_input_file = stdin_file});
  }
};

}  // namespace bkt::radixsort::test
