// Compaction templates for any trivially copyable element of 1, 2, 4, 8 or 16 bytes and any
// predicate functor (a struct with a __device__ operator(), or an extended __device__ lambda).
// Include from CUDA sources; plain C++ callers use bkt/compact.hpp. Policies are those of
// bkt/compact.hpp: outputs hold at least as many elements as the input, counts go to device memory.
#pragma once

#include <cstdint>
#include <span>
#include <type_traits>

#include "bkt/compact.hpp"
#include "bkt/detail/arguments.hpp"
#include "bkt/detail/compact/dispatch.cuh"

namespace bkt {

/// out[0, count) = the elements of `in` for which pred(element) is true, in input order.
template <class T, class Pred>
void select_if(std::span<const std::type_identity_t<T>> in, std::span<T> out, std::int64_t* d_num_selected,
               Pred pred, workspace& ws, cudaStream_t stream) {
  detail::expect_data("select_if", "input", in);
  detail::expect_capacity("select_if", "output", out, in.size());
  detail::expect_count_pointer("select_if", d_num_selected);
  detail::compact::compact_pointers<T, detail::compact::no_value> io{.keys_in = in.data(), .keys_out = out.data()};
  detail::compact::run<detail::compact::output_mode::select>(io, static_cast<std::int64_t>(in.size()), d_num_selected,
                                                            detail::compact::pick_by_predicate<Pred>{pred}, ws, stream);
}

/// out[0, count) = in[i] for every i with flags[i] true (non-zero), in input order.
template <class T, class Flag>
void select_flagged(std::span<const std::type_identity_t<T>> in, std::span<const Flag> flags, std::span<T> out,
                    std::int64_t* d_num_selected, workspace& ws, cudaStream_t stream) {
  detail::expect_data("select_flagged", "input", in);
  detail::expect_data("select_flagged", "flags", flags);
  detail::expect_same_size("select_flagged", "input", in.size(), "flags", flags.size());
  detail::expect_capacity("select_flagged", "output", out, in.size());
  detail::expect_count_pointer("select_flagged", d_num_selected);
  detail::compact::compact_pointers<T, detail::compact::no_value> io{.keys_in = in.data(), .keys_out = out.data()};
  detail::compact::run<detail::compact::output_mode::select>(io, static_cast<std::int64_t>(in.size()), d_num_selected,
                                                            detail::compact::pick_by_flag<Flag>{flags.data()}, ws, stream);
}

/// Stable partition into one array: elements satisfying `pred` first, then the rest, each in
/// input order. Costs one extra read and write of the rejected elements (they are written back to
/// front in the single pass, then reversed); the two-output form below avoids that.
template <class T, class Pred>
void stable_partition(std::span<const std::type_identity_t<T>> in, std::span<T> out, std::int64_t* d_num_selected,
                      Pred pred, workspace& ws, cudaStream_t stream) {
  detail::expect_data("stable_partition", "input", in);
  detail::expect_capacity("stable_partition", "output", out, in.size());
  detail::expect_count_pointer("stable_partition", d_num_selected);
  detail::compact::compact_pointers<T, detail::compact::no_value> io{.keys_in = in.data(), .keys_out = out.data()};
  detail::compact::run<detail::compact::output_mode::partition_reversed>(
      io, static_cast<std::int64_t>(in.size()), d_num_selected, detail::compact::pick_by_predicate<Pred>{pred}, ws, stream);
}

/// Stable partition into two arrays in one pass: chosen elements to `selected`, the others to
/// `rejected`, each in input order. Each output must hold as many elements as the input.
template <class T, class Pred>
void stable_partition(std::span<const std::type_identity_t<T>> in, std::span<T> selected, std::span<T> rejected,
                      std::int64_t* d_num_selected, Pred pred, workspace& ws, cudaStream_t stream) {
  detail::expect_data("stable_partition", "input", in);
  detail::expect_capacity("stable_partition", "selected output", selected, in.size());
  detail::expect_capacity("stable_partition", "rejected output", rejected, in.size());
  detail::expect_count_pointer("stable_partition", d_num_selected);
  detail::compact::compact_pointers<T, detail::compact::no_value> io{
      .keys_in = in.data(), .keys_out = selected.data(), .keys_rejected = rejected.data()};
  detail::compact::run<detail::compact::output_mode::partition_split>(
      io, static_cast<std::int64_t>(in.size()), d_num_selected, detail::compact::pick_by_predicate<Pred>{pred}, ws, stream);
}

// ---- key-value pairs: the predicate or flag looks at the key, the value travels with it ----

namespace detail::compact {
template <class K, class V>
compact_pointers<K, V> checked_pairs(const char* call, std::span<const K> keys_in, std::span<const V> values_in,
                                     std::span<K> keys_out, std::span<V> values_out) {
  expect_data(call, "keys", keys_in);
  expect_data(call, "values", values_in);
  expect_same_size(call, "keys", keys_in.size(), "values", values_in.size());
  expect_capacity(call, "key output", keys_out, keys_in.size());
  expect_capacity(call, "value output", values_out, keys_in.size());
  return {.keys_in = keys_in.data(), .values_in = values_in.data(), .keys_out = keys_out.data(),
          .values_out = values_out.data()};
}
}  // namespace detail::compact

/// Pairs whose key satisfies `pred`, in input order.
template <class K, class V, class Pred>
void select_if(std::span<const std::type_identity_t<K>> keys_in, std::span<const std::type_identity_t<V>> values_in,
               std::span<K> keys_out, std::span<V> values_out, std::int64_t* d_num_selected, Pred pred,
               workspace& ws, cudaStream_t stream) {
  const auto io = detail::compact::checked_pairs<K, V>("select_if", keys_in, values_in, keys_out, values_out);
  detail::expect_count_pointer("select_if", d_num_selected);
  detail::compact::run<detail::compact::output_mode::select>(io, static_cast<std::int64_t>(keys_in.size()),
                                                            d_num_selected,
                                                            detail::compact::pick_by_predicate<Pred>{pred}, ws, stream);
}

/// Pairs whose flag is true, in input order.
template <class K, class V, class Flag>
void select_flagged(std::span<const std::type_identity_t<K>> keys_in, std::span<const std::type_identity_t<V>> values_in,
                    std::span<const Flag> flags, std::span<K> keys_out, std::span<V> values_out,
                    std::int64_t* d_num_selected, workspace& ws, cudaStream_t stream) {
  const auto io = detail::compact::checked_pairs<K, V>("select_flagged", keys_in, values_in, keys_out, values_out);
  detail::expect_data("select_flagged", "flags", flags);
  detail::expect_same_size("select_flagged", "keys", keys_in.size(), "flags", flags.size());
  detail::expect_count_pointer("select_flagged", d_num_selected);
  detail::compact::run<detail::compact::output_mode::select>(io, static_cast<std::int64_t>(keys_in.size()),
                                                            d_num_selected,
                                                            detail::compact::pick_by_flag<Flag>{flags.data()}, ws, stream);
}

/// Stable partition of pairs into one array pair (see the key-only form for the cost).
template <class K, class V, class Pred>
void stable_partition(std::span<const std::type_identity_t<K>> keys_in,
                      std::span<const std::type_identity_t<V>> values_in, std::span<K> keys_out,
                      std::span<V> values_out, std::int64_t* d_num_selected, Pred pred, workspace& ws,
                      cudaStream_t stream) {
  const auto io = detail::compact::checked_pairs<K, V>("stable_partition", keys_in, values_in, keys_out, values_out);
  detail::expect_count_pointer("stable_partition", d_num_selected);
  detail::compact::run<detail::compact::output_mode::partition_reversed>(
      io, static_cast<std::int64_t>(keys_in.size()), d_num_selected, detail::compact::pick_by_predicate<Pred>{pred},
      ws, stream);
}

}  // namespace bkt
