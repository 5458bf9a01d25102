// How many keys one chunk may hold, from the memory there is: the GPU's free memory for the
// device buffers and workspace; for the host, the budget (--max-memory, else the memory the
// kernel reports available) for the chunk and its sorting buffers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "bkt/radix_sort.hpp"

namespace bkt::radixsort {

/// Host memory a run takes whatever its size: input and output buffers, the text reader's
/// look-ahead, the external sort's buckets read back. A budget under twice this is refused.
inline constexpr std::int64_t fixed_host_bytes = std::int64_t{8} << 20;

/// The most keys a GPU chunk may hold so that two key buffers, the indices (argsort) and the
/// sort's workspace fit in 80% of `free_device_bytes`. At least 1.
std::int64_t device_chunk_items(std::int64_t free_device_bytes, std::size_t key_bytes, bool with_indices,
                                const radix_sort_options& options);

/// Host bytes per key of a chunk while it is read and sorted: the keys twice (a text input grows
/// its chunk by doubling; the CPU sort's scratch), and with argsort the indices (twice on the CPU).
std::int64_t host_bytes_per_key(std::size_t key_bytes, bool with_indices, bool on_cpu);

/// The most keys a host chunk may hold within `budget_bytes`: the whole input when its length is
/// known and its chunk fits in 80% of what the fixed buffers leave (one sort), else 40% of it, which
/// leaves room for the external sort's key images and buckets. At least 1.
std::int64_t host_chunk_items(std::int64_t budget_bytes, std::size_t key_bytes, bool with_indices, bool on_cpu,
                              std::optional<std::int64_t> total_items);

}  // namespace bkt::radixsort
