// The sequential steps of the CPU radix sort (cpu_sort.hpp): a key's digit, counting a range's
// digits, moving a range by one digit (stably; through cache-line staging with streaming stores
// when the destination is far larger than the cache), copying.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#if defined(__x86_64__) || defined(_M_X64)
#include <emmintrin.h>
#define BKT_CPU_SORT_STREAMING 1
#endif

#include "bkt/detail/radix_bits.hpp"

namespace bkt::detail::radix_sort_cpu {

constexpr int digit_bits = 8;
constexpr int radix = 1 << digit_bits;
using counts = std::array<std::int64_t, radix>;

/// One pass's digit: bits [shift, shift + width) of the key's image, complemented for descending
/// order (the complement of the whole bit range is the complement of each of its digits).
template <class Key>
struct digit_of {
  int shift;
  unsigned mask;
  unsigned flip;  // mask for descending order, else 0
  unsigned operator()(const Key& key) const { return (static_cast<unsigned>(radix_bits(key) >> shift) & mask) ^ flip; }
};

/// The part of a key the sort compares: bits [begin_bit, end_bit) of its image, complemented for
/// descending order. Within a bucket the digits above those left agree, so this orders the rest.
template <class Key>
struct image_of {
  int shift;
  std::uint64_t mask;
  std::uint64_t flip;
  std::uint64_t operator()(const Key& key) const {
    return ((static_cast<std::uint64_t>(radix_bits(key)) >> shift) & mask) ^ flip;
  }
};

/// Keys and, when Value is not void, values: one of the sort's buffers.
template <class Key, class Value>
struct lanes {
  using value_slot = std::conditional_t<std::is_void_v<Value>, char, Value>;
  static constexpr bool has_values = !std::is_void_v<Value>;
  Key* keys = nullptr;
  value_slot* values = nullptr;  // with values: null in the input means "the input positions"
};

template <class Key>
void count_digits(const Key* keys, std::int64_t begin, std::int64_t end, digit_of<Key> digit, counts& into) {
  into.fill(0);
  for (std::int64_t i = begin; i < end; ++i) ++into[digit(keys[i])];
}

/// Moves [begin, end) of `from` to `to` by one digit, stably: a key of digit d goes to next[d]++.
/// Values follow their keys; an input without values (from.values null) gives each key its
/// position i.
template <class Key, class Value>
void move_by_digit(lanes<Key, Value> from, lanes<Key, Value> to, std::int64_t begin, std::int64_t end,
                   digit_of<Key> digit, counts& next) {
  if constexpr (lanes<Key, Value>::has_values) {
    if (from.values == nullptr) {
      for (std::int64_t i = begin; i < end; ++i) {
        const std::int64_t at = next[digit(from.keys[i])]++;
        to.keys[at] = from.keys[i];
        to.values[at] = static_cast<Value>(i);
      }
    } else {
      for (std::int64_t i = begin; i < end; ++i) {
        const std::int64_t at = next[digit(from.keys[i])]++;
        to.keys[at] = from.keys[i];
        to.values[at] = from.values[i];
      }
    }
  } else {
    for (std::int64_t i = begin; i < end; ++i) to.keys[next[digit(from.keys[i])]++] = from.keys[i];
  }
}

/// One thread's staging for move_by_digit_streaming: a cache line of keys (and their values) per
/// digit.
template <class Key, class Value>
struct staging {
  static constexpr std::int64_t line_items = 64 / sizeof(Key);
  alignas(64) Key keys[radix][line_items];
  typename lanes<Key, Value>::value_slot values[radix][lanes<Key, Value>::has_values ? line_items : 1];
};

/// Writes `items` staged elements to `to` with stores that bypass the cache where the target is
/// aligned for them (a destination far larger than the cache is not read back soon, and a
/// streaming store saves reading each line before writing it).
template <class T>
void stream_out(T* to, const T* from, std::int64_t items, bool whole_line) {
#ifdef BKT_CPU_SORT_STREAMING
  const std::int64_t bytes = items * static_cast<std::int64_t>(sizeof(T));
  if (whole_line && bytes % 16 == 0 && reinterpret_cast<std::uintptr_t>(to) % 16 == 0) {
    auto* target = reinterpret_cast<__m128i*>(to);
    const auto* source = reinterpret_cast<const __m128i*>(from);
    for (std::int64_t k = 0; k < bytes / 16; ++k) _mm_stream_si128(target + k, _mm_loadu_si128(source + k));
    return;
  }
  if constexpr (sizeof(T) == 8 && std::is_trivially_copyable_v<T>) {
    if (whole_line) {
      for (std::int64_t k = 0; k < items; ++k) {
        long long word;
        std::memcpy(&word, from + k, 8);
        _mm_stream_si64(reinterpret_cast<long long*>(to + k), word);
      }
      return;
    }
  } else if constexpr (sizeof(T) == 4 && std::is_trivially_copyable_v<T>) {
    if (whole_line) {
      for (std::int64_t k = 0; k < items; ++k) {
        int word;
        std::memcpy(&word, from + k, 4);
        _mm_stream_si32(reinterpret_cast<int*>(to + k), word);
      }
      return;
    }
  }
#else
  (void)whole_line;
#endif
  std::memcpy(to, from, static_cast<std::size_t>(items) * sizeof(T));
}

/// move_by_digit for a destination far larger than the cache: each digit's keys gather in a
/// cache line of `stage` and go out a whole line at a time (Satish et al., "Fast sort on CPUs and
/// GPUs", SIGMOD 2010, section 4.1: buffered scatter). The lines at the edges of this thread's
/// range of a digit, which another thread shares, are written with ordinary stores. Ends with a
/// store fence, so that the caller's barrier publishes the streamed lines.
template <class Key, class Value>
void move_by_digit_streaming(lanes<Key, Value> from, lanes<Key, Value> to, std::int64_t begin, std::int64_t end,
                             digit_of<Key> digit, counts& next, staging<Key, Value>& stage) {
  constexpr std::int64_t line = staging<Key, Value>::line_items;
  constexpr bool has_values = lanes<Key, Value>::has_values;
  // Slot of position p in its line: lines start at 64-byte addresses of to.keys.
  const auto offset = static_cast<std::int64_t>((reinterpret_cast<std::uintptr_t>(to.keys) / sizeof(Key)) % line);
  const counts first = next;
  const auto flush = [&](unsigned d, std::int64_t last) {  // the staged line that ends at position `last`
    const std::int64_t line_start = last - ((last + offset) % line);
    const std::int64_t start = std::max(line_start, first[d]);
    const std::int64_t slot = (start + offset) % line;
    const bool whole = start == line_start && (last + offset) % line == line - 1;
    stream_out(to.keys + start, &stage.keys[d][slot], last + 1 - start, whole);
    if constexpr (has_values) stream_out(to.values + start, &stage.values[d][slot], last + 1 - start, whole);
  };
  for (std::int64_t i = begin; i < end; ++i) {
    const Key key = from.keys[i];
    const unsigned d = digit(key);
    const std::int64_t at = next[d]++;
    const std::int64_t slot = (at + offset) % line;
    stage.keys[d][slot] = key;
    if constexpr (has_values)
      stage.values[d][slot] = from.values == nullptr ? static_cast<Value>(i) : from.values[i];
    if (slot == line - 1) flush(d, at);
  }
  for (int d = 0; d < radix; ++d)
    if (next[d] > first[d] && (next[d] - 1 + offset) % line != line - 1) flush(static_cast<unsigned>(d), next[d] - 1);
#ifdef BKT_CPU_SORT_STREAMING
  _mm_sfence();
#endif
}

/// Orders this thread's streaming stores before what follows (a barrier, a join).
inline void store_fence() {
#ifdef BKT_CPU_SORT_STREAMING
  _mm_sfence();
#endif
}

/// Copies `items` elements to `to`, whose lines are not in the cache: whole 64-byte lines with
/// streaming stores (no read of the line before it is written), the ragged ends with memcpy.
template <class T>
void stream_copy(T* to, const T* from, std::int64_t items) {
#ifdef BKT_CPU_SORT_STREAMING
  constexpr std::int64_t line = 64 / sizeof(T);
  if constexpr (64 % sizeof(T) == 0) {
    if (items >= 2 * line && reinterpret_cast<std::uintptr_t>(to) % sizeof(T) == 0) {
      const auto misalignment = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(to) % 64 / sizeof(T));
      const std::int64_t head = misalignment == 0 ? 0 : line - misalignment;
      std::memcpy(to, from, static_cast<std::size_t>(head) * sizeof(T));
      std::int64_t at = head;
      for (; at + line <= items; at += line) {
        auto* target = reinterpret_cast<__m128i*>(to + at);
        const auto* source = reinterpret_cast<const __m128i*>(from + at);
        for (int k = 0; k < 4; ++k) _mm_stream_si128(target + k, _mm_loadu_si128(source + k));
      }
      std::memcpy(to + at, from + at, static_cast<std::size_t>(items - at) * sizeof(T));
      return;
    }
  }
#endif
  std::memcpy(to, from, static_cast<std::size_t>(items) * sizeof(T));
}

template <class Key, class Value>
void copy_range(lanes<Key, Value> from, lanes<Key, Value> to, std::int64_t begin, std::int64_t end) {
  const auto items = static_cast<std::size_t>(end - begin);
  if (items == 0) return;
  if (from.keys != to.keys) std::memcpy(to.keys + begin, from.keys + begin, items * sizeof(Key));
  if constexpr (lanes<Key, Value>::has_values) {
    if (from.values == nullptr)
      for (std::int64_t i = begin; i < end; ++i) to.values[i] = static_cast<Value>(i);
    else if (from.values != to.values)
      std::memcpy(to.values + begin, from.values + begin, items * sizeof(Value));
  }
}

}  // namespace bkt::detail::radix_sort_cpu
