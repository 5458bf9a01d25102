#include "bkt/error.hpp"

namespace bkt {

error::error(const std::string& what, cudaError_t code, const char* file, int line)
    : std::runtime_error(what), code_(code), file_(file), line_(line) {}

namespace detail {

void throw_cuda_error(cudaError_t code, const char* call, const char* file, int line) {
  // Clear a sticky-free error so that the next call does not report it again.
  if (code != cudaSuccess) (void)cudaGetLastError();
  std::string what = std::string(cudaGetErrorName(code)) + ": " + cudaGetErrorString(code) +
                     " (in " + call + ")";
  throw error(what, code, file, line);
}

void throw_precondition(const char* message, const char* file, int line) {
  throw error(message, cudaSuccess, file, line);
}

void check_launch(cudaStream_t stream, const char* file, int line) {
  if (const cudaError_t code = cudaGetLastError(); code != cudaSuccess)
    throw_cuda_error(code, "kernel launch", file, line);
#ifdef BKT_DEBUG_SYNC
  if (const cudaError_t code = cudaStreamSynchronize(stream); code != cudaSuccess)
    throw_cuda_error(code, "kernel execution (BKT_DEBUG_SYNC)", file, line);
#else
  (void)stream;
#endif
}

}  // namespace detail
}  // namespace bkt
