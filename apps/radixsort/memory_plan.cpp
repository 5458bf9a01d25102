// The chunk sizes: simple fractions of the host budget, leaving room for the rest of the process
// and, when no --max-memory is given, for the other programs on the machine.
#include "memory_plan.hpp"

#include <algorithm>

namespace bkt::radixsort {

std::int64_t device_chunk_items(std::int64_t free_device_bytes, std::size_t key_bytes, bool with_indices,
                                const radix_sort_options& options) {
  const std::int64_t budget = free_device_bytes / 10 * 8;
  const auto per_key = static_cast<std::int64_t>(2 * key_bytes + (with_indices ? sizeof(std::int64_t) : 0));
  const auto needed = [&](std::int64_t items) {
    const std::size_t workspace =
        with_indices ? radix_sort_workspace_bytes(items, key_bytes, sizeof(std::int64_t), options,
                                                  radix_sort_form::separate_output)
                     : radix_sort_workspace_bytes(items, key_bytes, 0, options, radix_sort_form::double_buffer);
    return items * per_key + static_cast<std::int64_t>(workspace);
  };
  std::int64_t items = std::max<std::int64_t>(budget / per_key, 1);
  // The workspace grows with the chunk; shrink by 1/16 until both fit.
  for (int step = 0; step < 256 && items > 1 && needed(items) > budget; ++step)
    items -= std::max<std::int64_t>(items / 16, 1);
  return items;
}

std::int64_t host_bytes_per_key(std::size_t key_bytes, bool with_indices, bool on_cpu) {
  const auto index_bytes = static_cast<std::int64_t>(sizeof(std::int64_t));
  return 2 * static_cast<std::int64_t>(key_bytes) + (with_indices ? (on_cpu ? 2 : 1) * index_bytes : 0);
}

std::int64_t host_chunk_items(std::int64_t budget_bytes, std::size_t key_bytes, bool with_indices, bool on_cpu,
                              std::optional<std::int64_t> total_items) {
  const std::int64_t usable = std::max<std::int64_t>(budget_bytes - fixed_host_bytes, 0);
  const std::int64_t per_key = host_bytes_per_key(key_bytes, with_indices, on_cpu);
  if (total_items && *total_items <= usable / 10 * 8 / per_key) return std::max<std::int64_t>(*total_items, 1);
  return std::max<std::int64_t>(usable / 10 * 4 / per_key, 1);
}

}  // namespace bkt::radixsort
