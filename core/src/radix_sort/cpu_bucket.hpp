// One thread sorting one bucket of the CPU radix sort (cpu_sort.hpp) into the output. A bucket
// too large for the core's cache is split by its next digit in main memory (streaming stores);
// one that fits is sorted within the thread's own buffers, which stay in its cache, and only the
// sorted result goes back to main memory: each key is read from main memory once and written
// once, without the read a cached store makes of each line first.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "cpu_steps.hpp"

namespace bkt::detail::radix_sort_cpu {

/// A bucket of this many bytes (keys and values) or fewer is sorted in the thread's own buffers:
/// about half a core's L2 cache on current x86 and Arm servers.
constexpr std::int64_t local_bytes = std::int64_t{1} << 20;
/// A bucket this small is sorted by insertion: fewer moves than one radix pass's bookkeeping.
constexpr std::int64_t insertion_items = 32;

template <class Key, class Value>
class bucket_sorter {
 public:
  using buffers = lanes<Key, Value>;
  using value_slot = typename buffers::value_slot;
  static constexpr bool has_values = buffers::has_values;
  static constexpr std::int64_t item_bytes = sizeof(Key) + (has_values ? sizeof(value_slot) : 0);
  static constexpr std::int64_t local_items = local_bytes / item_bytes;

  /// The thread's own buffers, for a sort of `n` keys with `digits` digits: a split at each digit
  /// but the last two takes a buffer as large as the bucket it splits, and the last two digits
  /// take two more. Pages never touched cost nothing.
  class workspace {
   public:
    workspace(std::int64_t n, std::size_t digits)
        : items_(std::min(n, local_items) * static_cast<std::int64_t>(digits + 2)),
          keys_(std::make_unique_for_overwrite<Key[]>(static_cast<std::size_t>(items_))),
          values_(std::make_unique_for_overwrite<value_slot[]>(has_values ? static_cast<std::size_t>(items_) : 0)) {}
    buffers at(std::int64_t offset) const {
      return {keys_.get() + offset, has_values ? values_.get() + offset : nullptr};
    }

   private:
    std::int64_t items_;
    std::unique_ptr<Key[]> keys_;
    std::unique_ptr<value_slot[]> values_;
  };

  bucket_sorter(const std::vector<digit_of<Key>>& digits, image_of<Key> image, buffers out, buffers scratch,
                staging<Key, Value>& stage, workspace& local)
      : digits_(digits), image_(image), out_(out), scratch_(scratch), stage_(stage), local_(local) {}

  /// Sorts [begin, end), held in the output (in_out) or the scratch buffer, by digits[first...],
  /// into the output.
  void sort(bool in_out, std::int64_t begin, std::int64_t end, std::size_t first) {
    const buffers here = in_out ? out_ : scratch_;
    const std::int64_t items = end - begin;
    if (first == digits_.size() || items <= 1) return copy_range(here, out_, begin, end);
    if (items <= local_items) {
      sort_local(shifted(here, begin), shifted(out_, begin), items, first, 0);
      return store_fence();
    }
    counts sizes;
    count_digits(here.keys, begin, end, digits_[first], sizes);
    if (std::find(sizes.begin(), sizes.end(), items) != sizes.end()) return sort(in_out, begin, end, first + 1);
    counts next;
    std::int64_t at = begin;
    for (int d = 0; d < radix; ++d) next[d] = at, at += sizes[d];
    move_by_digit_streaming(here, in_out ? scratch_ : out_, begin, end, digits_[first], next, stage_);
    at = begin;
    for (int d = 0; d < radix; ++d) {
      if (sizes[d] > 0) sort(!in_out, at, at + sizes[d], first + 1);
      at += sizes[d];
    }
  }

 private:
  static buffers shifted(buffers b, std::int64_t offset) {
    return {b.keys + offset, has_values ? b.values + offset : nullptr};
  }

  /// Sorts the `items` elements at `from` by digits[first...] into `to` (the output; it may be
  /// `from` itself), through the workspace from `arena` on.
  void sort_local(buffers from, buffers to, std::int64_t items, std::size_t first, std::int64_t arena) {
    if (items <= insertion_items) {
      const buffers work = local_.at(arena);
      copy_range(from, work, 0, items);
      insertion_sort(work, items);
      return place(work, to, items, from);
    }
    const std::size_t left = digits_.size() - first;
    if (left <= 2) return least_significant_first(from, to, items, first, arena);
    // Split by this digit, unless every key shares it, then each part by the digits below.
    counts sizes;
    count_digits(from.keys, 0, items, digits_[first], sizes);
    if (std::find(sizes.begin(), sizes.end(), items) != sizes.end())
      return sort_local(from, to, items, first + 1, arena);
    const buffers parts = local_.at(arena);
    counts next = starts(sizes);
    move_by_digit(from, parts, 0, items, digits_[first], next);
    std::int64_t at = 0;
    for (int d = 0; d < radix; ++d) {
      if (sizes[d] > 0) sort_local(shifted(parts, at), shifted(to, at), sizes[d], first + 1, arena + items);
      at += sizes[d];
    }
  }

  /// The last one or two digits: one read counts both, then a pass for each that varies, between
  /// two of the thread's buffers.
  void least_significant_first(buffers from, buffers to, std::int64_t items, std::size_t first, std::int64_t arena) {
    const bool two = digits_.size() - first == 2;
    const digit_of<Key> high = digits_[first];
    const digit_of<Key> low = two ? digits_[first + 1] : digits_[first];
    std::array<counts, 2> sizes{};  // [0]: high, [1]: low
    if (two) {
      for (std::int64_t i = 0; i < items; ++i) {
        const Key key = from.keys[i];
        ++sizes[0][high(key)];
        ++sizes[1][low(key)];
      }
    } else {
      count_digits(from.keys, 0, items, high, sizes[0]);
    }
    const auto varies = [&](const counts& c) { return std::find(c.begin(), c.end(), items) == c.end(); };
    buffers source = from;
    int pass = 0;
    const auto move = [&](const counts& c, digit_of<Key> digit) {
      const buffers target = local_.at(arena + (pass++ % 2) * items);
      counts next = starts(c);
      move_by_digit(source, target, 0, items, digit, next);
      source = target;
    };
    if (two && varies(sizes[1])) move(sizes[1], low);
    if (varies(sizes[0])) move(sizes[0], high);
    place(source, to, items, from);
  }

  static counts starts(const counts& sizes) {
    counts next;
    std::int64_t at = 0;
    for (int d = 0; d < radix; ++d) next[d] = at, at += sizes[d];
    return next;
  }

  /// Puts a sorted local result in the output: with streaming stores when the output's lines are
  /// not already in the cache (the bucket was read from elsewhere), else with plain copies.
  void place(buffers sorted, buffers to, std::int64_t items, buffers read_from) {
    if (sorted.keys == to.keys) return;
    if (read_from.keys == to.keys) return copy_range(sorted, to, 0, items);
    stream_copy(to.keys, sorted.keys, items);
    if constexpr (has_values) stream_copy(to.values, sorted.values, items);
  }

  /// Stable insertion sort by image: a key moves left past strictly greater ones only.
  void insertion_sort(buffers here, std::int64_t items) {
    for (std::int64_t i = 1; i < items; ++i) {
      const Key key = here.keys[i];
      const std::uint64_t rank = image_(key);
      std::int64_t j = i;
      if constexpr (has_values) {
        const value_slot value = here.values[i];
        for (; j > 0 && image_(here.keys[j - 1]) > rank; --j) {
          here.keys[j] = here.keys[j - 1];
          here.values[j] = here.values[j - 1];
        }
        here.values[j] = value;
      } else {
        for (; j > 0 && image_(here.keys[j - 1]) > rank; --j) here.keys[j] = here.keys[j - 1];
      }
      here.keys[j] = key;
    }
  }

  const std::vector<digit_of<Key>>& digits_;
  image_of<Key> image_;
  buffers out_;
  buffers scratch_;
  staging<Key, Value>& stage_;
  workspace& local_;
};

}  // namespace bkt::detail::radix_sort_cpu
