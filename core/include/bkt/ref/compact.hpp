// bkt::ref: plain sequential compaction, the reference the GPU code is tested against and the CPU
// path of the host API. Same contracts as bkt/compact.hpp; returns the count.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <type_traits>

namespace bkt::ref {

template <class T, class Pred>
std::int64_t select_if(std::span<const std::type_identity_t<T>> in, std::span<T> out, Pred pred) {
  if (out.size() < in.size()) throw std::invalid_argument("ref::select_if: output smaller than input");
  std::size_t count = 0;
  for (const T& x : in)
    if (pred(x)) out[count++] = x;
  return static_cast<std::int64_t>(count);
}

template <class T, class Flag>
std::int64_t select_flagged(std::span<const std::type_identity_t<T>> in, std::span<const Flag> flags,
                            std::span<T> out) {
  if (out.size() < in.size() || flags.size() != in.size())
    throw std::invalid_argument("ref::select_flagged: sizes disagree");
  std::size_t count = 0;
  for (std::size_t i = 0; i < in.size(); ++i)
    if (flags[i]) out[count++] = in[i];
  return static_cast<std::int64_t>(count);
}

/// Chosen elements first, then the rest, both in input order.
template <class T, class Pred>
std::int64_t stable_partition(std::span<const std::type_identity_t<T>> in, std::span<T> out, Pred pred) {
  if (out.size() < in.size()) throw std::invalid_argument("ref::stable_partition: output smaller than input");
  std::size_t count = 0;
  for (const T& x : in) count += pred(x) ? 1 : 0;
  std::size_t chosen = 0;
  std::size_t rejected = count;
  for (const T& x : in) out[pred(x) ? chosen++ : rejected++] = x;
  return static_cast<std::int64_t>(count);
}

/// Pairs whose key satisfies `pred`, in input order.
template <class K, class V, class Pred>
std::int64_t select_if(std::span<const std::type_identity_t<K>> keys, std::span<const std::type_identity_t<V>> values,
                       std::span<K> keys_out, std::span<V> values_out, Pred pred) {
  if (values.size() != keys.size() || keys_out.size() < keys.size() || values_out.size() < keys.size())
    throw std::invalid_argument("ref::select_if: sizes disagree");
  std::size_t count = 0;
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (pred(keys[i])) {
      keys_out[count] = keys[i];
      values_out[count++] = values[i];
    }
  return static_cast<std::int64_t>(count);
}

/// Pairs whose flag is non-zero, in input order.
template <class K, class V, class Flag>
std::int64_t select_flagged(std::span<const std::type_identity_t<K>> keys,
                            std::span<const std::type_identity_t<V>> values, std::span<const Flag> flags,
                            std::span<K> keys_out, std::span<V> values_out) {
  if (values.size() != keys.size() || flags.size() != keys.size() || keys_out.size() < keys.size() ||
      values_out.size() < keys.size())
    throw std::invalid_argument("ref::select_flagged: sizes disagree");
  std::size_t count = 0;
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (flags[i]) {
      keys_out[count] = keys[i];
      values_out[count++] = values[i];
    }
  return static_cast<std::int64_t>(count);
}

/// Stable partition of pairs by their keys.
template <class K, class V, class Pred>
std::int64_t stable_partition(std::span<const std::type_identity_t<K>> keys,
                              std::span<const std::type_identity_t<V>> values, std::span<K> keys_out,
                              std::span<V> values_out, Pred pred) {
  if (values.size() != keys.size() || keys_out.size() < keys.size() || values_out.size() < keys.size())
    throw std::invalid_argument("ref::stable_partition: sizes disagree");
  std::size_t count = 0;
  for (const K& k : keys) count += pred(k) ? 1 : 0;
  std::size_t chosen = 0;
  std::size_t rejected = count;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const std::size_t slot = pred(keys[i]) ? chosen++ : rejected++;
    keys_out[slot] = keys[i];
    values_out[slot] = values[i];
  }
  return static_cast<std::int64_t>(count);
}

}  // namespace bkt::ref
