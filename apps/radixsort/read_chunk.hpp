// Reading keys into a host buffer that grows as the data comes, shared by the one-process run
// (sort_file.cpp) and the ranks' parts (sort_on_ranks.cpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>

#include "bkt_apps/numeric_io.hpp"
#include "bkt_apps/progress.hpp"
#include "buffer.hpp"

namespace bkt::radixsort {

/// Progress is drawn between slices of this many bytes.
inline constexpr std::int64_t progress_slice_bytes = std::int64_t{64} << 20;

/// Reads up to `max_items` keys into `chunk`, growing it as the data comes (a text input's length
/// is not known ahead, and a small input should not cost a chunk-sized allocation). Each read
/// goes straight into the chunk; memory the caller reserved in it is kept.
template <class Key>
inline void read_chunk(apps::chunk_reader& reader, buffer<Key>& chunk, std::int64_t max_items, apps::progress_bar& progress) {
  const std::int64_t slice = progress_slice_bytes / static_cast<std::int64_t>(sizeof(Key));
  chunk.clear();
  std::int64_t capacity = std::min<std::int64_t>(max_items, reader.total_items().value_or(1 << 16));
  for (;;) {
    const auto used = static_cast<std::int64_t>(chunk.size());
    capacity = std::max(capacity, used + 1);
    chunk.resize(static_cast<std::size_t>(capacity));  // keeps its allocation when shrunk below
    const std::int64_t got = reader.read_into(
        std::span<Key>(chunk.data() + used, static_cast<std::size_t>(std::min(capacity - used, slice))));
    chunk.resize(static_cast<std::size_t>(used + got));
    progress.update(reader.items_read());
    // Done at the end of the input: a read past a known length would only grow the chunk (and
    // copy it) to learn that nothing is left.
    const auto total = reader.total_items();
    if (got == 0 || used + got == max_items || (total && reader.items_read() >= *total)) return;
    if (used + got == capacity) capacity = std::min(max_items, 2 * capacity);
  }
}

}  // namespace bkt::radixsort
