// cuFFT calls checked like CUDA calls: a failure throws bkt::error naming the call (out of memory
// maps to cudaErrorMemoryAllocation, so that error::out_of_memory() holds).
#pragma once

#include <cufft.h>

#include <string>

#include "bkt/error.hpp"

namespace bkt::clean::gpu {

inline const char* cufft_result_name(cufftResult result) {
  switch (result) {
    case CUFFT_SUCCESS: return "CUFFT_SUCCESS";
    case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_TYPE: return "CUFFT_INVALID_TYPE";
    case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED: return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE: return "CUFFT_INVALID_SIZE";
    case CUFFT_UNALIGNED_DATA: return "CUFFT_UNALIGNED_DATA";
    default: return "cuFFT error";
  }
}

inline void check_cufft(cufftResult result, const char* call, const char* file, int line) {
  if (result == CUFFT_SUCCESS) return;
  const cudaError_t code = result == CUFFT_ALLOC_FAILED ? cudaErrorMemoryAllocation : cudaErrorUnknown;
  throw error(std::string(cufft_result_name(result)) + " (" + std::to_string(static_cast<int>(result)) + ", in " +
                  call + ")",
              code, file, line);
}

}  // namespace bkt::clean::gpu

/// Checks a cuFFT call and throws bkt::error naming the call, file and line.
#define BKT_CUFFT_CHECK(call) ::bkt::clean::gpu::check_cufft((call), #call, __FILE__, __LINE__)
