// The one error type of the tools: a message ready to print, and the exit code it maps to.
#pragma once

#include <stdexcept>
#include <string>

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

}  // namespace bkt::apps
