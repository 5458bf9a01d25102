// The public radix sort templates (bkt/radix_sort.hpp): argument checks, then the device-level
// sort. Each instantiation file expands them for its key and value types.
#pragma once

#include <cstdint>
#include <span>
#include <type_traits>

#include "bkt/detail/arguments.hpp"
#include "bkt/detail/radix_sort/dispatch.cuh"
#include "bkt/radix_sort.hpp"

namespace bkt {
namespace detail::radix_sort {

/// Both buffers of one size, and `current` naming one of them.
template <class T>
void check_double_buffer(const char* call, const char* name, const double_buffer<T>& b) {
  expect_data(call, name, b.buffers[0]);
  expect_data(call, name, b.buffers[1]);
  expect_same_size(call, "the first buffer", b.buffers[0].size(), "the second", b.buffers[1].size());
  BKT_EXPECTS(b.current == 0 || b.current == 1, "radix_sort: double_buffer::current must be 0 or 1");
}

template <class T>
std::int64_t item_count(std::span<T> s) {
  return static_cast<std::int64_t>(s.size());
}

}  // namespace detail::radix_sort

template <class Key>
void radix_sort_keys(std::span<const std::type_identity_t<Key>> keys_in, std::span<Key> keys_out, workspace& ws,
                     cudaStream_t stream, const radix_sort_options& options) {
  using namespace detail::radix_sort;
  detail::expect_data("radix_sort_keys", "keys", keys_in);
  detail::expect_capacity("radix_sort_keys", "key output", keys_out, keys_in.size());
  detail::expect_disjoint("radix_sort_keys", "keys", keys_in, "key output", keys_out);
  sort_separate<Key, no_value>(keys_in.data(), nullptr, keys_out.data(), nullptr, item_count(keys_in), options, ws,
                               stream);
}

template <class Key>
void radix_sort_keys(double_buffer<Key>& keys, workspace& ws, cudaStream_t stream, const radix_sort_options& options) {
  using namespace detail::radix_sort;
  check_double_buffer("radix_sort_keys", "keys", keys);
  Key* const buffers[2] = {keys.buffers[0].data(), keys.buffers[1].data()};
  char* const no_values[2] = {nullptr, nullptr};
  keys.current = sort_double_buffer<Key, no_value>(buffers, no_values, keys.current, item_count(keys.data()), options,
                                                   ws, stream);
}

template <class Key, class Word>
void detail::radix_sort_pairs(std::span<const Key> keys_in, std::span<const Word> values_in, std::span<Key> keys_out,
                              std::span<Word> values_out, workspace& ws, cudaStream_t stream,
                              const radix_sort_options& options) {
  expect_data("radix_sort_pairs", "keys", keys_in);
  expect_data("radix_sort_pairs", "values", values_in);
  expect_same_size("radix_sort_pairs", "keys", keys_in.size(), "values", values_in.size());
  expect_capacity("radix_sort_pairs", "key output", keys_out, keys_in.size());
  expect_capacity("radix_sort_pairs", "value output", values_out, keys_in.size());
  expect_disjoint("radix_sort_pairs", "keys", keys_in, "key output", keys_out);
  expect_disjoint("radix_sort_pairs", "values", values_in, "value output", values_out);
  radix_sort::sort_separate<Key, Word>(keys_in.data(), values_in.data(), keys_out.data(), values_out.data(),
                                       radix_sort::item_count(keys_in), options, ws, stream);
}

template <class Key, class Word>
void detail::radix_sort_pairs(double_buffer<Key>& keys, double_buffer<Word>& values, workspace& ws,
                              cudaStream_t stream, const radix_sort_options& options) {
  radix_sort::check_double_buffer("radix_sort_pairs", "keys", keys);
  radix_sort::check_double_buffer("radix_sort_pairs", "values", values);
  expect_same_size("radix_sort_pairs", "keys", keys.data().size(), "values", values.data().size());
  BKT_EXPECTS(keys.current == values.current, "radix_sort_pairs: keys.current and values.current differ");
  Key* const key_buffers[2] = {keys.buffers[0].data(), keys.buffers[1].data()};
  Word* const value_buffers[2] = {values.buffers[0].data(), values.buffers[1].data()};
  keys.current = values.current = radix_sort::sort_double_buffer<Key, Word>(
      key_buffers, value_buffers, keys.current, radix_sort::item_count(keys.data()), options, ws, stream);
}

template <class Key, class Index>
void radix_sort_indices(std::span<const std::type_identity_t<Key>> keys_in, std::span<Key> keys_out,
                        std::span<Index> indices_out, workspace& ws, cudaStream_t stream,
                        const radix_sort_options& options) {
  static_assert(std::is_same_v<Index, std::uint32_t> || std::is_same_v<Index, std::int64_t>,
                "indices are std::uint32_t or std::int64_t");
  using namespace detail::radix_sort;
  detail::expect_data("radix_sort_indices", "keys", keys_in);
  if (!keys_out.empty()) {
    detail::expect_capacity("radix_sort_indices", "key output", keys_out, keys_in.size());
    detail::expect_disjoint("radix_sort_indices", "keys", keys_in, "key output", keys_out);
  }
  detail::expect_capacity("radix_sort_indices", "index output", indices_out, keys_in.size());
  if constexpr (std::is_same_v<Index, std::uint32_t>)
    BKT_EXPECTS(keys_in.size() <= (std::size_t{1} << 32), "radix_sort_indices: uint32 indices need n <= 2^32");
  sort_separate<Key, index_value<Index>>(keys_in.data(), nullptr, keys_out.empty() ? nullptr : keys_out.data(),
                                         indices_out.data(), item_count(keys_in), options, ws, stream);
}

}  // namespace bkt
