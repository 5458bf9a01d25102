// Errors: one exception type for failed CUDA calls, bad arguments and exhausted memory.
#pragma once

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace bkt {

/// Thrown by every bkt call that fails. code() is cudaSuccess when no CUDA call failed
/// (a precondition was violated); cudaErrorMemoryAllocation means the device ran out of memory.
class error : public std::runtime_error {
 public:
  error(const std::string& what, cudaError_t code, const char* file, int line);
  cudaError_t code() const noexcept { return code_; }
  const char* file() const noexcept { return file_; }
  int line() const noexcept { return line_; }
  /// True when the failure was the device running out of memory.
  bool out_of_memory() const noexcept { return code_ == cudaErrorMemoryAllocation; }

 private:
  cudaError_t code_;
  const char* file_;
  int line_;
};

namespace detail {
[[noreturn]] void throw_cuda_error(cudaError_t code, const char* call, const char* file, int line);
[[noreturn]] void throw_precondition(const char* message, const char* file, int line);

inline void check_cuda(cudaError_t code, const char* call, const char* file, int line) {
  if (code != cudaSuccess) throw_cuda_error(code, call, file, line);
}
/// Reads the launch error; with BKT_DEBUG_SYNC also waits for the stream so that faults surface here.
void check_launch(cudaStream_t stream, const char* file, int line);
}  // namespace detail
}  // namespace bkt

/// Checks a CUDA runtime call and throws bkt::error naming the call, file and line.
#define BKT_CUDA_CHECK(call) ::bkt::detail::check_cuda((call), #call, __FILE__, __LINE__)
/// Checks the most recent kernel launch on `stream`.
#define BKT_CHECK_LAUNCH(stream) ::bkt::detail::check_launch((stream), __FILE__, __LINE__)
/// Checks a precondition of a public call; throws bkt::error with `message` when it fails.
#define BKT_EXPECTS(cond, message) \
  ((cond) ? void(0) : ::bkt::detail::throw_precondition((message), __FILE__, __LINE__))
