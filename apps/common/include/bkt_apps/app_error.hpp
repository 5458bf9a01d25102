// The one error type of the tools: a message ready to print, and the exit code it maps to.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace bkt::apps {

/// Exit codes shared by every tool (STYLE.md).
enum exit_code : int {
  exit_ok = 0,
  exit_bad_input = 1,    // bad input or data, or an I/O failure
  exit_usage = 2,        // bad command line (CLI11 parse error, conflicting options)
  exit_gpu_failure = 3,  // a CUDA failure or the device out of memory
};

/// what() is already formatted for the user, normally "FILE: problem" or "FILE:LINE: problem";
/// the tool prints "TOOL: what()" and exits with code().
class app_error : public std::runtime_error {
 public:
  explicit app_error(const std::string& message, int code = exit_bad_input)
      : std::runtime_error(message), code_(code) {}
  int code() const noexcept { return code_; }

 private:
  int code_;
};

/// An app_error for a problem with the command line (exit code 2).
inline app_error usage_error(const std::string& message) { return app_error(message, exit_usage); }

/// Input bytes made safe to echo in a message: `text` in single quotes, every byte outside
/// printable ASCII escaped (\n, \r, \t, else \xNN; a quote or backslash gets a backslash), so a
/// terminal never sees raw control bytes. Longer than `max_chars` input bytes, it keeps the first
/// `max_chars` and adds "... (N bytes)" with the full length N.
std::string quoted_excerpt(std::string_view text, std::size_t max_chars = 64);

}  // namespace bkt::apps
