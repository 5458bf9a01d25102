// bkt::ref::dist: the distributed sort of bkt/dist/sort.hpp simulated on the CPU, N ranks in one
// process, through the very plan the GPU code runs (bkt/dist/detail/sort_plan.hpp): local stable
// sorts, the regular sample, the splitters, the counts before each splitter, the exchange in rank
// order, chunk by chunk through the aligned windows and receive layout of the plan, and the stable
// merge of each chunk's runs. It returns what each rank ends with, so that tests can check
// the result against one stable sort of the whole and each rank's share against the bound.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "bkt/dist/detail/order_image.hpp"
#include "bkt/dist/detail/sort_plan.hpp"
#include "bkt/dist/detail/splitter.hpp"
#include "bkt/dist/sort_options.hpp"
#include "bkt/ref/radix_sort.hpp"

namespace bkt::ref::dist {

/// One rank's share after the sort: its keys and values, and the global rank of the first.
template <class Key, class Value>
struct sorted_slice {
  std::vector<Key> keys;
  std::vector<Value> values;
  std::int64_t global_first = 0;
};

namespace sort_detail {

template <class Key, class Value>
std::vector<sorted_slice<Key, Value>> simulate(const std::vector<std::vector<Key>>& keys,
                                               const std::vector<std::vector<Value>>& values,
                                               const bkt::dist::sort_options& options) {
  namespace plan = bkt::dist::detail;
  const auto num_ranks = static_cast<int>(keys.size());
  if (num_ranks < 1 || values.size() != keys.size())
    throw std::invalid_argument("ref::dist::sort: one key and one value array per rank");
  const bool descending = options.order == sort_order::descending;
  radix_sort_options local_options;
  local_options.order = options.order;

  // 1. Local stable sorts.
  std::vector<std::int64_t> items(keys.size());
  std::vector<std::vector<Key>> sorted_keys(keys.size());
  std::vector<std::vector<Value>> sorted_values(keys.size());
  for (int r = 0; r < num_ranks; ++r) {
    if (values[r].size() != keys[r].size()) throw std::invalid_argument("ref::dist::sort: keys and values differ in size");
    items[r] = static_cast<std::int64_t>(keys[r].size());
    const auto order = radix_sort_order<Key>(keys[r], local_options);
    for (const std::int64_t i : order) {
      sorted_keys[r].push_back(keys[r][i]);
      sorted_values[r].push_back(values[r][i]);
    }
  }
  // 2. The regular sample, gathered, and the splitters.
  const std::int64_t samples =
      options.samples_per_rank > 0 ? options.samples_per_rank : plan::default_samples_per_rank(num_ranks);
  const plan::sample_plan sampling = plan::plan_samples(items, samples);
  std::vector<std::uint64_t> gathered(static_cast<std::size_t>(sampling.total));
  for (int r = 0; r < num_ranks; ++r)
    for (std::int64_t j = 0; j < sampling.counts[r]; ++j)
      gathered[sampling.offsets[r] + j] = plan::order_image(sorted_keys[r][(j + 1) * sampling.step - 1], descending);
  const int chunks = plan::choose_chunks(options.chunks, std::accumulate(items.begin(), items.end(), std::int64_t{0}),
                                         num_ranks, static_cast<std::int64_t>(sizeof(Key) + sizeof(Value)));
  const std::int64_t align = plan::exchange_alignment(sizeof(Key), sizeof(Value));
  const auto splitters = plan::choose_splitters(gathered, sampling, items, chunks);
  // 3. Each rank's keys before every splitter, gathered.
  std::vector<std::int64_t> bounds;
  for (int r = 0; r < num_ranks; ++r)
    for (const auto& s : splitters)
      bounds.push_back(plan::elements_before(plan::image_reader<Key>{sorted_keys[r].data(), descending}, items[r], s, r));
  // 4. The exchange, chunk by chunk: each window moves whole (the sender's run is padded as the GPU
  // buffers are, to a multiple of align), into a receive buffer that starts poisoned; then chunk
  // c's runs, in source order, merged stably (a stable sort of their concatenation) at chunk_first.
  std::vector<plan::exchange_plan> exchanges;
  for (int r = 0; r < num_ranks; ++r) exchanges.push_back(plan::plan_exchange(bounds, items, r, chunks, align));
  for (int r = 0; r < num_ranks; ++r) {
    const std::int64_t padded = (items[r] + align - 1) / align * align;
    sorted_keys[r].resize(static_cast<std::size_t>(padded), Key{});
    sorted_values[r].resize(static_cast<std::size_t>(padded), Value{});
  }
  std::vector<sorted_slice<Key, Value>> result(keys.size());
  for (int r = 0; r < num_ranks; ++r) {
    const auto& mine = exchanges[r];
    std::vector<Key> recv_keys(static_cast<std::size_t>(mine.receive_extent), Key{});
    std::vector<Value> recv_values(static_cast<std::size_t>(mine.receive_extent), Value{});
    for (int p = 0; p < num_ranks; ++p)
      for (int c = 0; c < chunks; ++c) {
        const auto& theirs = exchanges[p];
        const std::int64_t at_send = r * chunks + c, at_recv = p * chunks + c;
        if (theirs.send_counts[at_send] != mine.recv_counts[at_recv] ||
            theirs.send_window_count[at_send] != mine.recv_window_count[at_recv])
          throw std::logic_error("ref::dist::sort: send and receive counts differ");
        const std::int64_t first = theirs.send_window_first[at_send], count = theirs.send_window_count[at_send];
        const std::int64_t to = mine.recv_window_offsets[at_recv];
        if (count > 0 && (first % align != 0 || to % align != 0 || count % align != 0 ||
                          first + count > static_cast<std::int64_t>(sorted_keys[p].size()) ||
                          to + count > mine.receive_extent))
          throw std::logic_error("ref::dist::sort: a window is misaligned or out of bounds");
        std::copy_n(sorted_keys[p].begin() + first, count, recv_keys.begin() + to);
        std::copy_n(sorted_values[p].begin() + first, count, recv_values.begin() + to);
      }
    for (int c = 0; c < chunks; ++c) {
      std::vector<Key> run_keys;
      std::vector<Value> run_values;
      for (int p = 0; p < num_ranks; ++p) {
        const std::int64_t at = p * chunks + c, count = mine.recv_counts[at];
        // A rank's own chunk is read in place from its sorted run.
        const auto& from_keys = p == r ? sorted_keys[r] : recv_keys;
        const auto& from_values = p == r ? sorted_values[r] : recv_values;
        const std::int64_t first = p == r ? mine.send_offsets[r * chunks + c] : mine.recv_offsets[at];
        run_keys.insert(run_keys.end(), from_keys.begin() + first, from_keys.begin() + first + count);
        run_values.insert(run_values.end(), from_values.begin() + first, from_values.begin() + first + count);
      }
      if (static_cast<std::int64_t>(run_keys.size()) != mine.chunk_first[c + 1] - mine.chunk_first[c] ||
          static_cast<std::int64_t>(result[r].keys.size()) != mine.chunk_first[c])
        throw std::logic_error("ref::dist::sort: a chunk does not land where the plan says");
      for (const std::int64_t i : radix_sort_order<Key>(run_keys, local_options)) {
        result[r].keys.push_back(run_keys[i]);
        result[r].values.push_back(run_values[i]);
      }
    }
    result[r].global_first = mine.global_first;
  }
  return result;
}

}  // namespace sort_detail

/// Each rank's share of the distributed sort of its keys (values left empty).
template <class Key>
std::vector<sorted_slice<Key, std::int64_t>> sort_keys(const std::vector<std::vector<Key>>& keys,
                                                       const bkt::dist::sort_options& options = {}) {
  std::vector<std::vector<std::int64_t>> none(keys.size());
  for (std::size_t r = 0; r < keys.size(); ++r) none[r].assign(keys[r].size(), 0);
  auto result = sort_detail::simulate<Key, std::int64_t>(keys, none, options);
  for (auto& slice : result) slice.values.clear();
  return result;
}

/// Each rank's share of the distributed sort of key-value pairs.
template <class Key, class Value>
std::vector<sorted_slice<Key, Value>> sort_pairs(const std::vector<std::vector<Key>>& keys,
                                                 const std::vector<std::vector<Value>>& values,
                                                 const bkt::dist::sort_options& options = {}) {
  return sort_detail::simulate<Key, Value>(keys, values, options);
}

/// Each rank's share of the global argsort: values are global input positions.
template <class Key>
std::vector<sorted_slice<Key, std::int64_t>> sort_indices(const std::vector<std::vector<Key>>& keys,
                                                          const bkt::dist::sort_options& options = {}) {
  std::vector<std::vector<std::int64_t>> positions(keys.size());
  std::int64_t start = 0;
  for (std::size_t r = 0; r < keys.size(); ++r)
    for (std::size_t i = 0; i < keys[r].size(); ++i) positions[r].push_back(start++);
  return sort_detail::simulate<Key, std::int64_t>(keys, positions, options);
}

}  // namespace bkt::ref::dist
