// Whether a usable GPU is present, and what it is.
#pragma once

#include <cstdint>
#include <string>

namespace bkt {

/// The current device as the library sees it.
struct device_info {
  int ordinal = -1;
  std::string name;
  int compute_major = 0;
  int compute_minor = 0;
  int multiprocessors = 0;
  std::int64_t global_memory_bytes = 0;
  std::int64_t free_memory_bytes = 0;  // free when the info was taken (cudaMemGetInfo)
  std::int64_t l2_cache_bytes = 0;
};

/// True when a CUDA device is present, the driver can start it, and this build has code for it.
/// Never throws; the first call in a process pays for creating the CUDA context.
bool gpu_available() noexcept;

/// Why gpu_available() is false ("no CUDA device", the driver's message, ...); empty when it is true.
std::string gpu_unavailable_reason();

/// Properties of the current device; throws bkt::error when there is none.
device_info current_device_info();

}  // namespace bkt
