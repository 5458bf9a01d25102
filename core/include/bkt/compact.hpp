// Order-preserving stream compaction: select_if, select_flagged and stable_partition.
//
// Device API: data in device memory, asynchronous on `stream`, the count written to device memory
// (read it with bkt::read_sync when the host needs it). This header is plain C++ and covers the
// element types below with comparison predicates; bkt/compact.cuh adds any trivially copyable
// element of 1, 2, 4, 8 or 16 bytes and any predicate functor, for code compiled with nvcc.
//
// Host API (namespace bkt::host): data in host memory; runs on the GPU when one is usable (copying
// in and out), else on the CPU through bkt::ref, with identical results.
//
// Element types: int8..int64, uint8..uint64, float, double. Values: any 4- or 8-byte trivially
// copyable type. Outputs must hold at least as many elements as the input; elements past the
// count are left untouched. Float comparisons follow IEEE 754: NaN fails every comparison but
// not_equal, and -0.0 equals +0.0.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <span>
#include <type_traits>

#include "bkt/backend.hpp"
#include "bkt/config.hpp"
#include "bkt/workspace.hpp"

namespace bkt {

enum class compare_op { less, less_equal, greater, greater_equal, equal, not_equal };

/// Predicate `x OP value`, usable on the GPU and the CPU without nvcc.
template <class T>
struct compare_with {
  compare_op op;
  T value;
  BKT_HOST_DEVICE bool operator()(const T& x) const {
    switch (op) {
      case compare_op::less: return x < value;
      case compare_op::less_equal: return x <= value;
      case compare_op::greater: return x > value;
      case compare_op::greater_equal: return x >= value;
      case compare_op::equal: return x == value;
      case compare_op::not_equal: return x != value;
    }
    return false;
  }
};

/// Bytes of workspace one compaction call of `num_items` elements needs (0 when num_items is 0).
std::size_t compact_workspace_bytes(std::int64_t num_items, std::size_t key_bytes, std::size_t value_bytes = 0);

// ---- device API: keys ----

/// out[0, count) = the elements of `in` that satisfy `pred`, in input order; *d_num_selected = count.
template <class T>
void select_if(std::span<const std::type_identity_t<T>> in, std::span<T> out, std::int64_t* d_num_selected,
               compare_with<T> pred, workspace& ws, cudaStream_t stream);

/// As select_if, keeping in[i] where flags[i] != 0.
template <class T>
void select_flagged(std::span<const std::type_identity_t<T>> in, std::span<const std::uint8_t> flags,
                    std::span<T> out, std::int64_t* d_num_selected, workspace& ws, cudaStream_t stream);

/// out = the elements satisfying `pred`, then the others, each group in input order (stable);
/// *d_num_selected = size of the first group. `out` must not overlap `in`.
template <class T>
void stable_partition(std::span<const std::type_identity_t<T>> in, std::span<T> out, std::int64_t* d_num_selected,
                      compare_with<T> pred, workspace& ws, cudaStream_t stream);

// ---- device API: key-value pairs (the predicate or flag looks at the key) ----

namespace detail {
template <std::size_t Bytes>
using value_word = std::conditional_t<Bytes == 4, std::uint32_t, std::uint64_t>;

template <class V>
constexpr void check_value_type() {
  static_assert(sizeof(V) == 4 || sizeof(V) == 8, "values of 4 or 8 bytes (use bkt/compact.cuh for others)");
  static_assert(std::is_trivially_copyable_v<V>, "values must be trivially copyable");
}
template <class W, class V>
std::span<const W> as_words(std::span<const V> s) { return {reinterpret_cast<const W*>(s.data()), s.size()}; }
template <class W, class V>
std::span<W> as_words(std::span<V> s) { return {reinterpret_cast<W*>(s.data()), s.size()}; }

template <class K, class W>
void select_if_pairs(std::span<const K>, std::span<const W>, std::span<K>, std::span<W>, std::int64_t*,
                     compare_with<K>, workspace&, cudaStream_t);
template <class K, class W>
void select_flagged_pairs(std::span<const K>, std::span<const W>, std::span<const std::uint8_t>, std::span<K>,
                          std::span<W>, std::int64_t*, workspace&, cudaStream_t);
template <class K, class W>
void stable_partition_pairs(std::span<const K>, std::span<const W>, std::span<K>, std::span<W>, std::int64_t*,
                            compare_with<K>, workspace&, cudaStream_t);
}  // namespace detail

/// Pairs whose key satisfies `pred`, in input order.
template <class K, class V>
void select_if(std::span<const std::type_identity_t<K>> keys_in, std::span<const std::type_identity_t<V>> values_in,
               std::span<K> keys_out, std::span<V> values_out, std::int64_t* d_num_selected, compare_with<K> pred,
               workspace& ws, cudaStream_t stream) {
  detail::check_value_type<V>();
  using W = detail::value_word<sizeof(V)>;
  detail::select_if_pairs<K, W>(keys_in, detail::as_words<W>(values_in), keys_out, detail::as_words<W>(values_out),
                                d_num_selected, pred, ws, stream);
}

/// Pairs whose flag is non-zero, in input order.
template <class K, class V>
void select_flagged(std::span<const std::type_identity_t<K>> keys_in, std::span<const std::type_identity_t<V>> values_in,
                    std::span<const std::uint8_t> flags, std::span<K> keys_out, std::span<V> values_out,
                    std::int64_t* d_num_selected, workspace& ws, cudaStream_t stream) {
  detail::check_value_type<V>();
  using W = detail::value_word<sizeof(V)>;
  detail::select_flagged_pairs<K, W>(keys_in, detail::as_words<W>(values_in), flags, keys_out,
                                     detail::as_words<W>(values_out), d_num_selected, ws, stream);
}

/// Stable partition of pairs by their keys.
template <class K, class V>
void stable_partition(std::span<const std::type_identity_t<K>> keys_in,
                      std::span<const std::type_identity_t<V>> values_in, std::span<K> keys_out,
                      std::span<V> values_out, std::int64_t* d_num_selected, compare_with<K> pred, workspace& ws,
                      cudaStream_t stream) {
  detail::check_value_type<V>();
  using W = detail::value_word<sizeof(V)>;
  detail::stable_partition_pairs<K, W>(keys_in, detail::as_words<W>(values_in), keys_out,
                                       detail::as_words<W>(values_out), d_num_selected, pred, ws, stream);
}

// ---- host API ----

namespace host {

/// Host-memory select_if; returns the count. `automatic` uses the GPU when bkt::gpu_available().
template <class T>
std::int64_t select_if(std::span<const std::type_identity_t<T>> in, std::span<T> out, compare_with<T> pred,
                       backend where = backend::automatic);

/// Host-memory select_flagged; returns the count.
template <class T>
std::int64_t select_flagged(std::span<const std::type_identity_t<T>> in, std::span<const std::uint8_t> flags,
                            std::span<T> out, backend where = backend::automatic);

/// Host-memory stable_partition; returns the size of the first group.
template <class T>
std::int64_t stable_partition(std::span<const std::type_identity_t<T>> in, std::span<T> out, compare_with<T> pred,
                              backend where = backend::automatic);

}  // namespace host
}  // namespace bkt
