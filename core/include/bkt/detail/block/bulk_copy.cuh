// Block-level building blocks: the bulk copy engine (sm_90) filling shared memory from global
// memory, with completion counted on a shared-memory mbarrier. A ring of such stages keeps many
// bytes of loads in flight without holding them in registers.
//
// A stage's barrier completes one phase per fill: one thread announces the bytes to expect and
// starts the copies; readers wait on the phase's parity (0, 1, 0, ... for the stage's fills).
// On targets without the engine (before sm_90) these functions compile to nothing and
// `bulk_copy_available()` is false, so callers must take another path there.
#pragma once

#include <cuda/ptx>

#include <cstdint>

namespace bkt::detail {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define BKT_BULK_COPY 1
#else
#define BKT_BULK_COPY 0
#endif

__host__ __device__ constexpr bool bulk_copy_available() { return BKT_BULK_COPY != 0; }

/// One thread, before any use and before a barrier over all users.
__device__ __forceinline__ void stage_barrier_init(std::uint64_t* barrier) {
#if BKT_BULK_COPY
  cuda::ptx::mbarrier_init(barrier, 1);
  cuda::ptx::fence_mbarrier_init(cuda::ptx::sem_release, cuda::ptx::scope_cluster);
#endif
}

/// One thread: the next phase of `barrier` completes once `bytes` have arrived.
__device__ __forceinline__ void stage_expect_bytes(std::uint64_t* barrier, std::uint32_t bytes) {
#if BKT_BULK_COPY
  cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cta, cuda::ptx::space_shared, barrier,
                                       bytes);
#endif
}

/// Copies `bytes` (a multiple of 16; both addresses 16-byte aligned) from global to shared memory,
/// counted on `barrier`. Shared memory that the block read with ordinary loads before a barrier
/// may be refilled after it: the fence orders those reads before the copy's writes.
__device__ __forceinline__ void bulk_copy_to_shared(void* shared, const void* global, std::uint32_t bytes,
                                                    std::uint64_t* barrier) {
#if BKT_BULK_COPY
  cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
  cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global, shared, global, bytes, barrier);
#endif
}

/// Waits until the phase of `barrier` with this parity has completed.
__device__ __forceinline__ void stage_wait(std::uint64_t* barrier, std::uint32_t parity) {
#if BKT_BULK_COPY
  while (!cuda::ptx::mbarrier_try_wait_parity(barrier, parity)) {
  }
#endif
}

#undef BKT_BULK_COPY

}  // namespace bkt::detail
