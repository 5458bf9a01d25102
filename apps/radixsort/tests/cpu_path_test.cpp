// The CPU path end to end: text integers read exactly (the values choose the dtype), inputs
// large enough for every thread, --max-memory, and binary output refused on a terminal.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "expected.hpp"
#include "tool_fixture.hpp"

namespace bkt::radixsort::test {
namespace {

using cpu_path = tool_test;

TEST_F(cpu_path, text_integers_keep_every_digit) {
  // As f64, 9007199254740993 came out as 9007199254740992 and 18446744073709551615 as ...616.
  const std::string signed_input = write("signed.txt", "9007199254740993\n-3\n9007199254740992\n");
  tool_result result = run({signed_input, "--json", path("summary.json"), "-o", path("out.txt")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(read_file(path("out.txt")), "-3\n9007199254740992\n9007199254740993\n");
  const auto summary = nlohmann::json::parse(read_file(path("summary.json")));
  EXPECT_EQ(summary["dtype"], "i64");
  EXPECT_EQ(summary["dtype_inferred"], true);

  const std::string unsigned_input = write("unsigned.txt", "18446744073709551615\n0\n18446744073709551614\n");
  result = run({"--json", "-", "--verbose", "-o", path("out.npy")}, unsigned_input);  // standard input
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(nlohmann::json::parse(result.out)["dtype"], "u64");
  EXPECT_NE(result.err.find("3 u64 (inferred from the text) elements from <stdin>"), std::string::npos) << result.err;
  EXPECT_EQ(read_file(path("out.npy")),
            npy_1d(std::vector<std::uint64_t>{0, 18446744073709551614u, 18446744073709551615u}));

  // A float anywhere in a file makes it f64; --dtype is never second-guessed.
  result = run({write("mixed.txt", "2\n0.5\n1\n"), "--json", "-", "-o", path("mixed.txt.out")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(nlohmann::json::parse(result.out)["dtype"], "f64");
  result = run({signed_input, "--dtype", "f64", "--json", "-", "-o", path("f64.out.txt")});
  EXPECT_EQ(nlohmann::json::parse(result.out)["dtype_inferred"], false);
}

TEST_F(cpu_path, a_late_float_on_standard_input_is_refused_with_the_dtype_to_give) {
  std::string text;
  for (int i = 0; text.size() < (std::size_t{5} << 20); ++i) text += std::to_string(i % 977) + "\n";
  const std::string input = write("in.txt", text + "0.5\n");
  const tool_result result = run({"-o", path("out.npy")}, input);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("bkt-radixsort: <stdin>:"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("give --dtype f64"), std::string::npos) << result.err;
  EXPECT_EQ(entries(), std::vector<std::string>{"in.txt"});  // no output left behind
  EXPECT_EQ(run({"--dtype", "f64", "-o", path("out.npy")}, input).exit_code, 0);
}

TEST_F(cpu_path, inputs_large_enough_for_every_thread) {
  const auto keys = adversarial_values<std::uint32_t>(400003, 41);
  const std::string input = write("in.npy", npy_1d(keys));
  tool_result result = run({input, "--cpu", "-o", path("sorted.npy")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(read_file(path("sorted.npy")), npy_1d(gather(keys, expected_positions(keys))));
  result = run({input, "--cpu", "--argsort", "--descending", "-o", path("order.npy")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(read_file(path("order.npy")), npy_1d(expected_positions(keys, {.descending = true})));
  const auto floats = adversarial_values<double>(300007, 42);
  result = run({write("in.f64", raw_bytes(floats)), "--dtype", "f64", "--cpu", "--descending", "-o", path("f.bin")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(read_file(path("f.bin")), raw_bytes(gather(floats, expected_positions(floats, {.descending = true}))));
}

TEST_F(cpu_path, max_memory_chunks_into_the_external_sort_or_refuses) {
  const auto keys = adversarial_values<std::uint32_t>(3000000, 43);  // 12 MB
  const std::string input = write("in.u32", raw_bytes(keys));
  // 24 MiB: the 16 MiB left after the fixed buffers holds no single 24 MB sort, nor every run.
  tool_result result =
      run({input, "--dtype", "u32", "--cpu", "--max-memory", "24M", "--json", "-", "-o", path("out.u32")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto summary = nlohmann::json::parse(result.out);
  EXPECT_GT(summary["chunks"].get<int>(), 1);
  EXPECT_GT(summary["buckets"].get<int>(), 0);
  EXPECT_EQ(read_file(path("out.u32")), raw_bytes(gather(keys, expected_positions(keys))));
  // Without a limit the same input is one chunk.
  result = run({input, "--dtype", "u32", "--cpu", "--json", "-", "-o", path("out2.u32")});
  EXPECT_EQ(nlohmann::json::parse(result.out)["chunks"], 1);
  // Below what any run needs: refused before reading, nothing written.
  result = run({input, "--dtype", "u32", "--max-memory", "1M", "-o", path("out3.u32")});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find(input + ": sorting needs"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("(--max-memory)"), std::string::npos) << result.err;
  EXPECT_EQ(entries(), (std::vector<std::string>{"in.u32", "out.u32", "out2.u32"}));
}

/// Runs the tool with standard output on a pseudo-terminal; returns the exit code, `err` gets
/// standard error and `shown` what reached the terminal.
int run_on_terminal(const std::vector<std::string>& args, const std::string& err_file, std::string& shown) {
  const int master = ::posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0 || ::grantpt(master) != 0 || ::unlockpt(master) != 0) return -1;
  const std::string terminal = ::ptsname(master);
  const pid_t child = ::fork();
  if (child == 0) {
    const int slave = ::open(terminal.c_str(), O_RDWR | O_NOCTTY);
    const int err = ::open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int null = ::open("/dev/null", O_RDONLY);
    if (slave < 0 || err < 0 || null < 0 || ::dup2(slave, STDOUT_FILENO) < 0 || ::dup2(err, STDERR_FILENO) < 0 ||
        ::dup2(null, STDIN_FILENO) < 0)
      ::_exit(126);
    std::vector<std::string> copies = args;
    std::vector<char*> argv = {const_cast<char*>(BKT_RADIXSORT_EXE)};
    for (auto& arg : copies) argv.push_back(arg.data());
    argv.push_back(nullptr);
    ::execv(BKT_RADIXSORT_EXE, argv.data());
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  char bytes[4096];
  ::fcntl(master, F_SETFL, O_NONBLOCK);
  for (ssize_t got; (got = ::read(master, bytes, sizeof(bytes))) > 0;) shown.append(bytes, static_cast<std::size_t>(got));
  ::close(master);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TEST_F(cpu_path, binary_output_to_a_terminal_is_refused) {
  const std::string npy_input = write("in.npy", npy_1d(std::vector<std::int32_t>{3, 1, 2}));
  const std::string err_file = (dir_ / "stderr").string();
  std::string shown;
  ASSERT_EQ(run_on_terminal({npy_input}, err_file, shown), 2);
  EXPECT_EQ(read_file(err_file),
            "bkt-radixsort: <stdout>: will not write npy data to a terminal; give -o FILE, redirect standard output, "
            "or --output-format text\n");
  EXPECT_EQ(shown, "");
  shown.clear();
  ASSERT_EQ(run_on_terminal({write("in.u8", "\x03\x01"), "--dtype", "u8"}, err_file, shown), 2);
  EXPECT_NE(read_file(err_file).find("will not write raw data to a terminal"), std::string::npos);
  shown.clear();
  // Text is for terminals.
  ASSERT_EQ(run_on_terminal({npy_input, "--output-format", "text"}, err_file, shown), 0) << read_file(err_file);
  EXPECT_EQ(shown, "1\r\n2\r\n3\r\n");  // the terminal turns each newline into CR LF
}

}  // namespace
}  // namespace bkt::radixsort::test
