// Every failure: a non-zero exit, one line on stderr that names the file, and nothing written:
// no output file, no temporary, and an existing output left as it was.
#include <gtest/gtest.h>
#include <unistd.h>

#include "expected.hpp"
#include "tool_fixture.hpp"

namespace bkt::radixsort::test {
namespace {

class bad_input : public tool_test {
 protected:
  /// Runs the tool expecting failure with `code` and a message that starts as `message` says.
  void expect_failure(const std::vector<std::string>& args, int code, const std::string& message,
                      const std::vector<std::string>& files_after, const std::string& stdin_file = "") {
    const tool_result result = run(args, stdin_file);
    EXPECT_EQ(result.exit_code, code) << result.err;
    EXPECT_EQ(result.err.rfind("bkt-radixsort: " + message, 0), 0u) << result.err;
    EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
    EXPECT_EQ(result.out, "");
    EXPECT_EQ(entries(), files_after);
  }
};

TEST_F(bad_input, raw_size_not_a_multiple_of_the_dtype) {
  const std::string input = write("in.bin", std::string(10, '\1'));
  expect_failure({input, "--dtype", "u32", "-o", path("out.bin")}, 1,
                 input + ": 10 bytes is not a whole number of u32 elements (4 bytes each)", {"in.bin"});
}

TEST_F(bad_input, raw_stdin_with_a_stray_byte) {
  const std::string input = write("in", std::string(9, '\1'));
  expect_failure({"--format", "raw", "--dtype", "u64"}, 1, "<stdin>: 9 bytes is not a whole number of u64", {"in"},
                 input);
}

TEST_F(bad_input, fortran_order_npy) {
  const std::string input = write("in.npy", npy_file("<f8", "(2, 2)", std::string(32, '\0'), true));
  expect_failure({input, "--column", "1", "-o", path("out.npy")}, 1,
                 input + ": Fortran-order (column-major) 2-D arrays are not supported", {"in.npy"});
}

TEST_F(bad_input, object_npy) {
  const std::string input = write("in.npy", npy_file("|O", "(3,)", std::string(24, '\0')));
  expect_failure({input, "-o", path("out.npy")}, 1, input + ": object arrays (dtype '|O') are not supported",
                 {"in.npy"});
}

TEST_F(bad_input, truncated_npy) {
  const std::string input = write("in.npy", npy_file("<u4", "(100,)", std::string(40, '\0')));
  expect_failure({input, "-o", path("out.npy")}, 1, input + ": truncated: the header promises 100 u32 elements",
                 {"in.npy"});
}

TEST_F(bad_input, unparsable_text_line_reports_its_number) {
  const std::string input = write("in.txt", "# values\n1\n2\n\n3\nthree\n4\n");
  expect_failure({input, "-o", path("out.txt")}, 1, input + ":6: not a number: 'three'", {"in.txt"});
}

TEST_F(bad_input, text_error_after_many_chunks_leaves_nothing) {
  std::string text;
  for (int i = 0; i < 500; ++i) text += std::to_string(500 - i) + "\n";
  const std::string input = write("in.txt", text + "1e999\n");
  expect_failure({input, "--chunk-items", "16", "-o", path("out.txt")}, 1,
                 input + ":501: '1e999' is out of range for f64", {"in.txt"});
}

TEST_F(bad_input, failure_keeps_an_existing_output) {
  const std::string input = write("in.txt", "1\nx\n");
  const std::string output = write("out.txt", "precious\n");
  expect_failure({input, "-o", output}, 1, input + ":2: not a number: 'x'", {"in.txt", "out.txt"});
  EXPECT_EQ(read_file(output), "precious\n");
}

TEST_F(bad_input, unreadable_input) {
  expect_failure({path("missing.txt"), "-o", path("out.txt")}, 1, path("missing.txt") + ": cannot open: No such file",
                 {});
  expect_failure({dir_.string(), "--dtype", "u8", "-o", path("out.txt")}, 1, dir_.string() + ": is a directory", {});
  if (::geteuid() != 0) {  // root reads anything
    const std::string input = write("secret.txt", "1\n");
    ::chmod(input.c_str(), 0);
    expect_failure({input, "-o", path("out.txt")}, 1, input + ": cannot open: Permission denied", {"secret.txt"});
  }
}

TEST_F(bad_input, unwritable_output) {
  const std::string input = write("in.txt", "2\n1\n");
  expect_failure({input, "-o", path("no-such-dir/out.txt")}, 1, path("no-such-dir/out.txt") + ": cannot create",
                 {"in.txt"});
  std::filesystem::create_directory(path("a-directory"));
  expect_failure({input, "-o", path("a-directory")}, 1, path("a-directory") + ": is a directory",
                 {"a-directory", "in.txt"});
}

TEST_F(bad_input, usage_errors_exit_2) {
  const std::string input = write("in.bin", std::string(8, '\0'));
  expect_failure({input, "-o", path("out.bin")}, 2, input + ": raw input needs --dtype", {"in.bin"});
  expect_failure({input, "--dtype", "u128"}, 2, "--dtype: 'u128' is not one of", {"in.bin"});
  expect_failure({input, "--no-such-flag"}, 2, "The following argument was not expected: --no-such-flag", {"in.bin"});
  expect_failure({input, "--dtype", "u8", "--chunk-items", "0"}, 2, "--chunk-items: '0' must be >= 1", {"in.bin"});
  expect_failure({input, "--dtype", "u8", "--json", "-"}, 2, "--json - and the data cannot share standard output",
                 {"in.bin"});
  const std::string matrix = write("m.npy", npy_file("<u2", "(2, 2)", std::string(8, '\0')));
  expect_failure({matrix, "-o", path("out.npy")}, 2, matrix + ": a 2-D array (2 x 2): choose a column",
                 {"in.bin", "m.npy"});
}

TEST_F(bad_input, help_and_version_exit_0) {
  const tool_result version = run({"--version"});
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_EQ(version.out, "bkt-radixsort " BKT_VERSION "\n");
  const tool_result help = run({"--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("--argsort"), std::string::npos);
  EXPECT_NE(help.out.find("always stable"), std::string::npos);
}

}  // namespace
}  // namespace bkt::radixsort::test
