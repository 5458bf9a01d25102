// What the host APIs (namespace bkt::host) share: the backend choice and a stream per call.
#pragma once

#include <cuda_runtime_api.h>

#include "bkt/backend.hpp"
#include "bkt/error.hpp"
#include "bkt/gpu.hpp"

namespace bkt::host::detail {

inline bool use_gpu(backend where) {
  if (where == backend::cpu) return false;
  if (where == backend::gpu) return true;  // a missing GPU then surfaces as bkt::error
  return gpu_available();
}

/// A non-blocking stream that lives as long as one host call.
class call_stream {
 public:
  call_stream() { BKT_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~call_stream() { (void)cudaStreamDestroy(stream_); }
  call_stream(const call_stream&) = delete;
  call_stream& operator=(const call_stream&) = delete;
  operator cudaStream_t() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

}  // namespace bkt::host::detail
