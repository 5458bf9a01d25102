// The chunk sizes: simple fractions of free memory, leaving room for the rest of the process and
// for the other programs on the machine.
#include "memory_plan.hpp"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <string>

namespace bkt::radixsort {

std::int64_t available_host_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key, unit;
  std::int64_t kibibytes = 0;
  while (meminfo >> key >> kibibytes >> unit)
    if (key == "MemAvailable:") return kibibytes * 1024;
  const long pages = ::sysconf(_SC_AVPHYS_PAGES);
  const long page_bytes = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page_bytes > 0 ? static_cast<std::int64_t>(pages) * page_bytes : std::int64_t{1} << 30;
}

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

std::int64_t host_chunk_items(std::int64_t available_bytes, std::size_t key_bytes, bool with_indices, bool on_cpu) {
  const auto per_key = static_cast<std::int64_t>(2 * key_bytes + (with_indices ? sizeof(std::int64_t) : 0) +
                                                 (on_cpu ? 2 * sizeof(std::int64_t) : 0));
  return std::max<std::int64_t>(available_bytes / 10 * 4 / per_key, 1);
}

std::int64_t run_memory_budget(std::int64_t available_bytes, std::int64_t chunk_items, std::size_t key_bytes,
                               bool with_indices) {
  const auto chunk_bytes =
      chunk_items * static_cast<std::int64_t>(2 * key_bytes + (with_indices ? sizeof(std::int64_t) : 0));
  return std::max<std::int64_t>(available_bytes / 2 - chunk_bytes, 0);
}

}  // namespace bkt::radixsort
