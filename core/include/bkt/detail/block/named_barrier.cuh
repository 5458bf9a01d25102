// Block-level building blocks: the hardware's numbered barriers, for kernels whose warps have
// different jobs (a producer signals with arrive and goes on, consumers wait with sync). Barrier 0
// is __syncthreads'; a kernel numbers the others itself. `threads` counts every thread that takes
// part (arriving or waiting) and is a multiple of 32. Completing a barrier orders the shared-memory
// writes of the threads that arrived before the reads of the threads that waited.
#pragma once

namespace bkt::detail {

/// Waits until `threads` threads have reached barrier `id` (this one included).
__device__ __forceinline__ void barrier_sync(int id, int threads) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

/// Counts this thread as arrived at barrier `id` and goes on without waiting.
__device__ __forceinline__ void barrier_arrive(int id, int threads) {
  asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

}  // namespace bkt::detail
