// Properties of the current device that launches are sized by (cheap attribute queries).
#pragma once

#include <cuda_runtime_api.h>

#include "bkt/error.hpp"

namespace bkt::clean::gpu {

inline int device_attribute(cudaDeviceAttr attribute) {
  int device = 0, value = 0;
  BKT_CUDA_CHECK(cudaGetDevice(&device));
  BKT_CUDA_CHECK(cudaDeviceGetAttribute(&value, attribute, device));
  return value;
}

/// Bytes of shared memory one block may use after opting in (227 KB on Hopper).
inline int max_shared_bytes_per_block() { return device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin); }

}  // namespace bkt::clean::gpu
