// bkt::ref: the radix sort's CPU reference and CPU path: std::stable_sort on the keys' sort bits
// (the bits [begin_bit, end_bit) of their order-preserving image), as bkt/radix_sort.hpp defines.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "bkt/detail/radix_bits.hpp"
#include "bkt/radix_sort.hpp"

namespace bkt::ref {

/// The part of a key the sort compares, as an unsigned integer; descending order complements it.
template <class Key>
struct radix_sort_key {
  int begin_bit;
  int end_bit;
  bool descending;

  static radix_sort_key make(const radix_sort_options& options) {
    constexpr int key_bits = 8 * static_cast<int>(sizeof(Key));
    const int end = options.end_bit < 0 ? key_bits : options.end_bit;
    if (options.begin_bit < 0 || end > key_bits || options.begin_bit > end)
      throw std::invalid_argument("ref::radix_sort: bit range outside the key");
    return {options.begin_bit, end, options.order == sort_order::descending};
  }

  std::uint64_t operator()(const Key& key) const {
    const int bits = end_bit - begin_bit;
    const std::uint64_t mask = bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
    const std::uint64_t part = (static_cast<std::uint64_t>(detail::radix_bits(key)) >> begin_bit) & mask;
    return descending ? mask - part : part;
  }
};

/// The stable sorting permutation: order[j] = the input position of the j-th key.
template <class Key>
std::vector<std::int64_t> radix_sort_order(std::span<const Key> keys, const radix_sort_options& options = {}) {
  const auto sort_key = radix_sort_key<Key>::make(options);
  std::vector<std::uint64_t> images(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) images[i] = sort_key(keys[i]);
  std::vector<std::int64_t> order(keys.size());
  std::iota(order.begin(), order.end(), std::int64_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) { return images[a] < images[b]; });
  return order;
}

template <class Key>
void radix_sort_keys(std::span<const std::type_identity_t<Key>> keys_in, std::span<Key> keys_out,
                     const radix_sort_options& options = {}) {
  if (keys_out.size() < keys_in.size()) throw std::invalid_argument("ref::radix_sort_keys: output smaller than input");
  const auto order = radix_sort_order<Key>(keys_in, options);
  for (std::size_t j = 0; j < order.size(); ++j) keys_out[j] = keys_in[order[j]];
}

template <class Key, class Value>
void radix_sort_pairs(std::span<const std::type_identity_t<Key>> keys_in,
                      std::span<const std::type_identity_t<Value>> values_in, std::span<Key> keys_out,
                      std::span<Value> values_out, const radix_sort_options& options = {}) {
  if (values_in.size() != keys_in.size()) throw std::invalid_argument("ref::radix_sort_pairs: keys and values differ in size");
  if (keys_out.size() < keys_in.size() || values_out.size() < keys_in.size())
    throw std::invalid_argument("ref::radix_sort_pairs: output smaller than input");
  const auto order = radix_sort_order<Key>(keys_in, options);
  for (std::size_t j = 0; j < order.size(); ++j) {
    keys_out[j] = keys_in[order[j]];
    values_out[j] = values_in[order[j]];
  }
}

/// keys_out may be empty.
template <class Key, class Index>
void radix_sort_indices(std::span<const std::type_identity_t<Key>> keys_in, std::span<Key> keys_out,
                        std::span<Index> indices_out, const radix_sort_options& options = {}) {
  if (indices_out.size() < keys_in.size() || (!keys_out.empty() && keys_out.size() < keys_in.size()))
    throw std::invalid_argument("ref::radix_sort_indices: output smaller than input");
  const auto order = radix_sort_order<Key>(keys_in, options);
  for (std::size_t j = 0; j < order.size(); ++j) {
    indices_out[j] = static_cast<Index>(order[j]);
    if (!keys_out.empty()) keys_out[j] = keys_in[order[j]];
  }
}

}  // namespace bkt::ref
