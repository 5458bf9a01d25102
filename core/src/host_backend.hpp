// What the host APIs (namespace bkt::host) share: the backend choice and a stream per call.
#pragma once

#include <cuda_runtime_api.h>

#include "bkt/backend.hpp"
#include "bkt/error.hpp"
#include "bkt/gpu.hpp"
#include "bkt/stream.hpp"

namespace bkt::host::detail {

inline bool use_gpu(backend where) {
  if (where == backend::cpu) return false;
  if (where == backend::gpu) return true;  // a missing GPU then surfaces as bkt::error
  return gpu_available();
}

/// A stream that lives as long as one host call.
using call_stream = bkt::owned_stream;

}  // namespace bkt::host::detail
