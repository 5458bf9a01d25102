// Argument checks of multisplit, shared by the device API and the host API and made before any
// CUDA call; the shipped bucket functors' parameters are checked too.
#pragma once

#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>

#include "bkt/buckets.hpp"
#include "bkt/detail/arguments.hpp"
#include "bkt/multisplit_types.hpp"

namespace bkt::detail::multisplit {

template <class Fn>
void check_functor(const char*, const Fn&) {}  // user functors: ids are clamped on the device

template <class Key>
void check_functor(const char* call, const bit_range_buckets<Key>& fn) {
  if (fn.first_bit < 0 || fn.num_bits < 0 || fn.num_bits > 16 || fn.first_bit + fn.num_bits > 8 * static_cast<int>(sizeof(Key)))
    throw_argument(std::string(call) + ": bit range [" + std::to_string(fn.first_bit) + ", " +
                   std::to_string(fn.first_bit + fn.num_bits) + ") does not fit a " + std::to_string(8 * sizeof(Key)) +
                   "-bit key (at most 16 bits)");
}

template <class Key>
void check_functor(const char* call, const delta_buckets<Key>& fn) {
  bool positive;
  if constexpr (std::is_floating_point_v<Key>) positive = std::isfinite(fn.delta) && fn.delta > 0;
  else positive = fn.delta > 0;
  if (!positive) throw_argument(std::string(call) + ": delta_buckets needs a positive, finite delta");
  if (fn.buckets < 1) throw_argument(std::string(call) + ": delta_buckets needs at least one bucket");
}

template <class Key>
void check_functor(const char* call, const splitter_buckets<Key>& fn) {
  if (fn.num_splitters < 0 || (fn.num_splitters > 0 && fn.splitters == nullptr))
    throw_argument(std::string(call) + ": splitter_buckets has no splitters");
}

/// What every multisplit call checks: keys, the bucket count, room for the offsets, the functor.
template <class Key, class Fn>
void check_common(const char* call, std::span<const Key> keys_in, std::span<std::int64_t> offsets, int num_buckets,
                  const Fn& fn) {
  expect_data(call, "keys", keys_in);
  check_functor(call, fn);
  if (num_buckets < 1 || num_buckets > multisplit_max_buckets)
    throw_argument(std::string(call) + ": num_buckets is " + std::to_string(num_buckets) + ", outside [1, " +
                   std::to_string(multisplit_max_buckets) + "]");
  if (offsets.data() == nullptr || offsets.size() < static_cast<std::size_t>(num_buckets) + 1)
    throw_argument(std::string(call) + ": bucket_offsets must hold num_buckets + 1 = " +
                   std::to_string(num_buckets + 1) + " elements");
}

}  // namespace bkt::detail::multisplit
