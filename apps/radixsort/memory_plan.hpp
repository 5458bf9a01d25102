// How many keys one chunk may hold, from the memory there is: the GPU's free memory for the
// device buffers and workspace, the host's available memory for the chunk and its sorted copy.
#pragma once

#include <cstddef>
#include <cstdint>

#include "bkt/radix_sort.hpp"

namespace bkt::radixsort {

/// Host memory available now: MemAvailable from /proc/meminfo, else free pages (sysconf).
std::int64_t available_host_bytes();

/// The most keys a GPU chunk may hold so that two key buffers, the indices (argsort) and the
/// sort's workspace fit in 80% of `free_device_bytes`. At least 1.
std::int64_t device_chunk_items(std::int64_t free_device_bytes, std::size_t key_bytes, bool with_indices,
                                const radix_sort_options& options);

/// The most keys a host chunk may hold in 40% of `available_bytes`: the chunk read, its sorted
/// copy, the indices and, on the CPU, the reference sort's scratch (16 bytes a key). At least 1.
std::int64_t host_chunk_items(std::int64_t available_bytes, std::size_t key_bytes, bool with_indices, bool on_cpu);

/// Bytes of sorted runs that may stay in memory: 50% of `available_bytes` less the chunk buffers.
std::int64_t run_memory_budget(std::int64_t available_bytes, std::int64_t chunk_items, std::size_t key_bytes,
                               bool with_indices);

}  // namespace bkt::radixsort
