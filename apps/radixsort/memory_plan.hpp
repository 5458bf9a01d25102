// How many keys one chunk may hold, from the memory there is: the GPU's free memory for the
// device buffers and workspace; for the host, the budget (--max-memory, else the memory the
// kernel reports available) for the chunk, its sorting buffers and the sorted runs kept.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "bkt/radix_sort.hpp"

namespace bkt::radixsort {

/// Host memory a run takes whatever its size: input and output buffers, the text reader's
/// look-ahead, the merge's output block. A budget under twice this is refused.
inline constexpr std::int64_t fixed_host_bytes = std::int64_t{8} << 20;

/// The most keys a GPU chunk may hold so that two key buffers, the indices (argsort) and the
/// sort's workspace fit in 80% of `free_device_bytes`. At least 1.
std::int64_t device_chunk_items(std::int64_t free_device_bytes, std::size_t key_bytes, bool with_indices,
                                const radix_sort_options& options);

/// Host bytes per key of a chunk while it is read and sorted: the keys twice (a text input grows
/// its chunk by doubling; the CPU sort's scratch), and with argsort the indices (twice on the CPU).
std::int64_t host_bytes_per_key(std::size_t key_bytes, bool with_indices, bool on_cpu);

/// The most keys a host chunk may hold within `budget_bytes`: the whole input when its length is
/// known and its chunk fits in 80% of what the fixed buffers leave (one sort, no merge), else 40%
/// of it, which leaves room for sorted runs. At least 1.
std::int64_t host_chunk_items(std::int64_t budget_bytes, std::size_t key_bytes, bool with_indices, bool on_cpu,
                              std::optional<std::int64_t> total_items);

/// Bytes of sorted runs that may stay in memory: half of what the fixed buffers leave, less the
/// chunk's own buffers; runs beyond it go to a temporary file.
std::int64_t run_memory_budget(std::int64_t budget_bytes, std::int64_t chunk_items, std::size_t key_bytes,
                               bool with_indices, bool on_cpu);

/// Keys per read-back block of each spilled run in the merge: 256 MiB in all, or a tenth of the
/// budget when that is less, shared among the runs; 1 to 2^17.
std::int64_t merge_block_items(std::int64_t budget_bytes, std::int64_t spilled_runs, std::size_t key_bytes);

}  // namespace bkt::radixsort
