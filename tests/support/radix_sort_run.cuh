// Runs radix sort on the GPU from host data, in every form, with poisoned outputs that reach past
// n, and compares with the permutation of bkt::ref (std::stable_sort) element for element.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "bkt/radix_sort.hpp"
#include "bkt/ref/radix_sort.hpp"
#include "checks.hpp"
#include "device_run.hpp"

namespace bkt::test {

/// Poisoned elements each output gets past what the call may write.
inline constexpr std::int64_t sort_margin = 29;

/// Forms to run, as bits. Pairs carry value i = f(i), so an exact match checks stability.
enum sort_form : unsigned {
  sort_keys = 1,
  sort_pairs32 = 2,
  sort_pairs64 = 4,
  sort_indices32 = 8,
  sort_indices64_no_keys = 16,
  sort_keys_double_buffer = 32,
  sort_pairs_double_buffer = 64,
  every_sort_form = 127,
};

/// got[0, n) equals source(order[j]) bit for bit, and the margin past n (if any) holds poison.
template <class T, class Source>
::testing::AssertionResult sorted_as(std::span<const T> got, const std::vector<std::int64_t>& order, Source source) {
  const std::size_t n = order.size();
  std::vector<T> expected(n);
  for (std::size_t j = 0; j < n; ++j) expected[j] = static_cast<T>(source(order[j]));
  if (auto same = bitwise_equal<T>(expected, got.first(n)); !same) return same;
  return poison_intact<T>(got.subspan(n));
}

/// Value i of the pair forms: distinct (an odd multiplier is a bijection modulo 2^32 and 2^64),
/// and not the identity, so values mixed up with indices show.
template <class Word>
Word pair_value(std::int64_t i) {
  return static_cast<Word>(static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull);
}

/// Runs each form of `forms` and checks it against the reference.
template <class Key>
void check_radix_sort(const std::vector<Key>& keys, const radix_sort_options& options, unsigned forms, workspace& ws,
                      cudaStream_t stream) {
  const auto n = static_cast<std::int64_t>(keys.size());
  const auto order = ref::radix_sort_order<Key>(keys, options);
  const auto key_at = [&](std::int64_t i) { return keys[static_cast<std::size_t>(i)]; };
  const auto index_at = [](std::int64_t i) { return i; };
  auto d_keys = to_device<Key>(keys, stream);
  const std::span<const Key> in = d_keys.span();

  if (forms & sort_keys) {
    auto out = poisoned_buffer<Key>(n + sort_margin, stream);
    radix_sort_keys<Key>(in, out.span(), ws, stream, options);
    EXPECT_TRUE(sorted_as<Key>(to_host(out), order, key_at)) << "keys";
  }
  const auto check_pairs = [&]<class Word>(Word) {
    std::vector<Word> values(keys.size());
    for (std::int64_t i = 0; i < n; ++i) values[i] = pair_value<Word>(i);
    auto d_values = to_device<Word>(values, stream);
    auto keys_out = poisoned_buffer<Key>(n + sort_margin, stream);
    auto values_out = poisoned_buffer<Word>(n + sort_margin, stream);
    radix_sort_pairs<Key, Word>(in, d_values.span(), keys_out.span(), values_out.span(), ws, stream, options);
    EXPECT_TRUE(sorted_as<Key>(to_host(keys_out), order, key_at)) << "pairs, keys";
    EXPECT_TRUE(sorted_as<Word>(to_host(values_out), order, pair_value<Word>)) << "pairs, " << 8 * sizeof(Word) << "-bit values";
  };
  if (forms & sort_pairs32) check_pairs(std::uint32_t{});
  if (forms & sort_pairs64) check_pairs(std::uint64_t{});
  if (forms & sort_indices32) {
    auto keys_out = poisoned_buffer<Key>(n + sort_margin, stream);
    auto indices = poisoned_buffer<std::uint32_t>(n + sort_margin, stream);
    radix_sort_indices<Key, std::uint32_t>(in, keys_out.span(), indices.span(), ws, stream, options);
    EXPECT_TRUE(sorted_as<Key>(to_host(keys_out), order, key_at)) << "indices32, keys";
    EXPECT_TRUE(sorted_as<std::uint32_t>(to_host(indices), order, index_at)) << "indices32";
  }
  if (forms & sort_indices64_no_keys) {
    auto indices = poisoned_buffer<std::int64_t>(n + sort_margin, stream);
    radix_sort_indices<Key, std::int64_t>(in, {}, indices.span(), ws, stream, options);
    EXPECT_TRUE(sorted_as<std::int64_t>(to_host(indices), order, index_at)) << "indices64 without keys";
  }
  // Double buffers: the data starts in buffer 1, so the result's buffer depends on the pass count.
  if (forms & sort_keys_double_buffer) {
    auto first = poisoned_buffer<Key>(n, stream);
    auto second = to_device<Key>(keys, stream);
    double_buffer<Key> buffers{{first.span(), second.span()}, 1};
    radix_sort_keys<Key>(buffers, ws, stream, options);
    EXPECT_TRUE(sorted_as<Key>(to_host_sync<Key>(buffers.data(), stream), order, key_at)) << "double-buffer keys";
  }
  if (forms & sort_pairs_double_buffer) {
    std::vector<std::uint32_t> values(keys.size());
    for (std::int64_t i = 0; i < n; ++i) values[i] = pair_value<std::uint32_t>(i);
    auto keys_a = poisoned_buffer<Key>(n, stream);
    auto keys_b = to_device<Key>(keys, stream);
    auto values_a = poisoned_buffer<std::uint32_t>(n, stream);
    auto values_b = to_device<std::uint32_t>(values, stream);
    double_buffer<Key> key_buffers{{keys_a.span(), keys_b.span()}, 1};
    double_buffer<std::uint32_t> value_buffers{{values_a.span(), values_b.span()}, 1};
    radix_sort_pairs<Key, std::uint32_t>(key_buffers, value_buffers, ws, stream, options);
    EXPECT_EQ(key_buffers.current, value_buffers.current);
    EXPECT_TRUE(sorted_as<Key>(to_host_sync<Key>(key_buffers.data(), stream), order, key_at)) << "double-buffer pairs, keys";
    EXPECT_TRUE(sorted_as<std::uint32_t>(to_host_sync<std::uint32_t>(value_buffers.data(), stream), order,
                                         pair_value<std::uint32_t>))
        << "double-buffer pairs, values";
  }
}

}  // namespace bkt::test
