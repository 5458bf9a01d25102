// An owned CUDA stream, for callers that want one of their own for a while (a host call, a test,
// a tool's run).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdio>

#include "bkt/error.hpp"

namespace bkt {

/// A non-blocking stream created with the object and destroyed with it. Neither copied nor moved.
class owned_stream {
 public:
  owned_stream() { BKT_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~owned_stream() {
    // Destructors must not throw: report and carry on.
    if (const cudaError_t code = cudaStreamDestroy(stream_); code != cudaSuccess)
      std::fprintf(stderr, "bkt: cudaStreamDestroy failed: %s\n", cudaGetErrorString(code));
  }
  owned_stream(const owned_stream&) = delete;
  owned_stream& operator=(const owned_stream&) = delete;

  cudaStream_t get() const noexcept { return stream_; }
  operator cudaStream_t() const noexcept { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

}  // namespace bkt
