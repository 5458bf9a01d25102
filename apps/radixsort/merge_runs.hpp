// The k-way merge of sorted runs, stable: among equal keys the run that came earlier in the
// input wins, so the merged output is what one stable sort of the whole input would give.
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include "buffer.hpp"
#include "bkt/ref/radix_sort.hpp"
#include "sorted_runs.hpp"

namespace bkt::radixsort {

/// Merges every run of `store` in sort order and hands the result to emit(keys, indices, count)
/// in blocks of up to `block_items` (indices is null without indices). Runs are read back in
/// blocks of `read_block_items` each.
template <class Key, class Emit>
void merge_runs(const run_store<Key>& store, const radix_sort_options& options, bool with_indices,
                std::int64_t read_block_items, std::int64_t block_items, Emit&& emit) {
  const auto sort_key = ref::radix_sort_key<Key>::make(options);  // descending is folded in here
  std::vector<run_cursor<Key>> cursors;
  cursors.reserve(store.runs().size());
  for (const auto& run : store.runs()) cursors.emplace_back(run, store.spill(), with_indices, read_block_items);

  // A min-heap of (sort key, run number): the run number breaks ties, which makes the merge stable.
  using entry = std::pair<std::uint64_t, std::size_t>;
  std::priority_queue<entry, std::vector<entry>, std::greater<entry>> heap;
  for (std::size_t r = 0; r < cursors.size(); ++r)
    if (!cursors[r].done()) heap.emplace(sort_key(cursors[r].key()), r);

  buffer<Key> keys;
  buffer<std::int64_t> indices;
  keys.reserve(static_cast<std::size_t>(block_items));
  if (with_indices) indices.reserve(static_cast<std::size_t>(block_items));
  const auto flush = [&] {
    if (keys.empty()) return;
    emit(keys.data(), with_indices ? indices.data() : nullptr, static_cast<std::int64_t>(keys.size()));
    keys.clear();
    indices.clear();
  };
  while (!heap.empty()) {
    const std::size_t r = heap.top().second;
    heap.pop();
    auto& cursor = cursors[r];
    keys.push_back(cursor.key());
    if (with_indices) indices.push_back(cursor.index());
    cursor.advance();
    if (!cursor.done()) heap.emplace(sort_key(cursor.key()), r);
    if (static_cast<std::int64_t>(keys.size()) >= block_items) flush();
  }
  flush();
}

}  // namespace bkt::radixsort
