#include "bkt/gpu.hpp"

#include <cuda_runtime_api.h>

#include "bkt/error.hpp"

namespace bkt {
namespace {

__global__ void probe_kernel() {}

// Device count, then a tiny allocation (fails when the driver is too old for this runtime), then the
// attributes of a kernel of this build (fails when the build has no code for this device).
std::string probe() {
  int count = 0;
  if (const cudaError_t code = cudaGetDeviceCount(&count); code != cudaSuccess) {
    (void)cudaGetLastError();
    return code == cudaErrorNoDevice ? "no CUDA device" : cudaGetErrorString(code);
  }
  if (count == 0) return "no CUDA device";
  void* probe_ptr = nullptr;
  if (const cudaError_t code = cudaMalloc(&probe_ptr, 1); code != cudaSuccess) {
    (void)cudaGetLastError();
    return std::string("CUDA device present but unusable: ") + cudaGetErrorString(code);
  }
  (void)cudaFree(probe_ptr);
  cudaFuncAttributes attributes{};
  if (const cudaError_t code = cudaFuncGetAttributes(&attributes, probe_kernel); code != cudaSuccess) {
    (void)cudaGetLastError();
    return std::string("this build has no code for the CUDA device: ") + cudaGetErrorString(code);
  }
  return {};
}

}  // namespace

std::string gpu_unavailable_reason() { return probe(); }

bool gpu_available() noexcept {
  try {
    return probe().empty();
  } catch (...) {
    return false;
  }
}

device_info current_device_info() {
  device_info info;
  BKT_CUDA_CHECK(cudaGetDevice(&info.ordinal));
  cudaDeviceProp prop{};
  BKT_CUDA_CHECK(cudaGetDeviceProperties(&prop, info.ordinal));
  info.name = prop.name;
  info.compute_major = prop.major;
  info.compute_minor = prop.minor;
  info.multiprocessors = prop.multiProcessorCount;
  info.global_memory_bytes = static_cast<std::int64_t>(prop.totalGlobalMem);
  info.l2_cache_bytes = prop.l2CacheSize;
  std::size_t free_bytes = 0, total_bytes = 0;
  BKT_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  info.free_memory_bytes = static_cast<std::int64_t>(free_bytes);
  return info;
}

}  // namespace bkt
