// Sizing a launch by what the current device holds at once: the grid of a persistent kernel (one
// that loops over tiles until the work runs out) or of a cooperative one (a grid-wide barrier needs
// every block resident). Host code for nvcc (it takes kernels); each call queries the current
// device, cheaply, and throws bkt::error when a CUDA call fails.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "bkt/error.hpp"

namespace bkt {

/// Multiprocessors (SMs) of the current device.
inline int multiprocessor_count() {
  int device = 0, multiprocessors = 0;
  BKT_CUDA_CHECK(cudaGetDevice(&device));
  BKT_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  return multiprocessors;
}

/// Blocks of `kernel` (block_threads threads, shared_bytes of dynamic shared memory) that fit on
/// the current device at once: the size of a persistent grid. At least one a multiprocessor, also
/// when the occupancy query reports none.
template <class Kernel>
std::int64_t resident_blocks(Kernel kernel, int block_threads, std::size_t shared_bytes) {
  const int multiprocessors = multiprocessor_count();
  int per_multiprocessor = 0;
  BKT_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, kernel, block_threads, shared_bytes));
  return std::int64_t{multiprocessors} * (per_multiprocessor > 0 ? per_multiprocessor : 1);
}

/// The grid of a cooperative launch of `kernel`: at most `per_multiprocessor_cap` blocks on each
/// multiprocessor (a grid barrier gets dearer with every block), and 0 when the device has no
/// cooperative launch or cannot hold even one block.
template <class Kernel>
int cooperative_blocks(Kernel kernel, int block_threads, std::size_t shared_bytes, int per_multiprocessor_cap) {
  int device = 0, cooperative = 0, multiprocessors = 0, per_multiprocessor = 0;
  BKT_CUDA_CHECK(cudaGetDevice(&device));
  BKT_CUDA_CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device));
  if (cooperative == 0) return 0;
  BKT_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  BKT_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, kernel, block_threads, shared_bytes));
  return multiprocessors * (per_multiprocessor < per_multiprocessor_cap ? per_multiprocessor : per_multiprocessor_cap);
}

/// Lets `kernel` use `shared_bytes` of dynamic shared memory: beyond 48 KB of static and dynamic
/// together a kernel must opt in.
template <class Kernel>
void allow_shared_bytes(Kernel kernel, std::size_t shared_bytes) {
  if (shared_bytes > 0)
    BKT_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared_bytes)));
}

}  // namespace bkt
