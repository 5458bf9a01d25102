// Runs a built tool as a user would: arguments, standard input (bytes, a file or nothing), extra
// environment and an optional address-space limit; captures standard output, standard error and
// the exit code. Every tool's tests run their tool through this.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bkt::apps::test {

/// What a run left.
struct tool_run {
  int exit_code = -1;  // the exit status, or 128 + the signal that ended the tool
  std::string out;     // standard output
  std::string err;     // standard error
};

/// How to start the tool, beyond its arguments.
struct tool_setup {
  /// These bytes on standard input; without them, `standard_input_file`, or else /dev/null.
  std::optional<std::string> standard_input;
  std::string standard_input_file;
  /// "NAME=VALUE" entries set in the tool's environment on top of the test's own
  /// ("CUDA_VISIBLE_DEVICES=" hides every GPU).
  std::vector<std::string> environment;
  /// The tool's address space in bytes (RLIMIT_AS), so that a large allocation fails as it
  /// would on a machine without the memory; 0: no limit.
  std::uint64_t address_limit = 0;
};

/// Runs `exe` with `arguments` and waits for it. The streams go through files, not pipes, so that
/// no amount of output can deadlock. Exit code 126: the child could not set up its streams or
/// limit; 127: `exe` could not be started.
tool_run run_tool(const std::string& exe, const std::vector<std::string>& arguments, const tool_setup& setup = {});

/// The lines of `text`, without their newlines.
std::vector<std::string> lines_of(const std::string& text);

/// The checks of every failure case: exit code `code`, nothing on standard output, one line on
/// standard error that starts with "TOOL: " and contains each of `needles`.
void expect_one_line_failure(const tool_run& run, const std::string& tool, int code,
                             const std::vector<std::string>& needles);

}  // namespace bkt::apps::test
