// The fixture of the bkt-clean tests: a directory per test, removed afterwards, and the built tool
// run as a user would (bkt_apps_test/tool_runner.hpp), with the checks every failure makes; and
// the FITS files they write and read (fits_files.hpp).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "bkt_apps_test/temp_dir.hpp"
#include "bkt_apps_test/tool_runner.hpp"
#include "fits_files.hpp"

namespace clean_test {

using tool_run = ::bkt::apps::test::tool_run;
using ::bkt::apps::test::lines_of;
using ::bkt::apps::test::read_file;
using ::bkt::apps::test::write_file;

/// Runs BKT_CLEAN_EXE with `arguments`, standard input empty. A non-zero `address_limit` (bytes)
/// caps the child's address space, so that a large allocation fails as it would on a machine
/// without the memory.
inline tool_run run_clean_tool(const std::vector<std::string>& arguments, std::uint64_t address_limit = 0) {
  return ::bkt::apps::test::run_tool(BKT_CLEAN_EXE, arguments, {.address_limit = address_limit});
}

/// A fixture with a fresh scratch directory, and the checks every failure case makes.
class tool_test : public ::testing::Test {
 protected:
  std::string path(const std::string& name) const { return (directory_ / name).string(); }
  /// The names in the scratch directory, sorted.
  std::vector<std::string> listing() const { return ::bkt::apps::test::temp_dir::names_in(directory_); }
  /// Exit code `code`, nothing on stdout, one line on stderr that starts "bkt-clean: " and
  /// contains each of `needles`.
  static void expect_failure(const tool_run& run, int code, const std::vector<std::string>& needles) {
    ::bkt::apps::test::expect_one_line_failure(run, "bkt-clean", code, needles);
  }

  const ::bkt::apps::test::temp_dir scratch_{"bkt-clean-test"};
  const std::filesystem::path directory_ = scratch_.path();
};

}  // namespace clean_test
