// Stable LSD radix sort built on multisplit: one counting read of the keys finds the digit counts
// of every pass (as Onesweep does), then each pass is a stable multisplit by one digit that reads
// and writes each key (and value) once.
//
// Order: keys compare by their order-preserving unsigned image (bkt/detail/radix_bits.hpp), so
// integers sort numerically and floats in the total order
//   -NaN < -inf < ... < -denormals < -0.0 < +0.0 < +denormals < ... < +inf < +NaN,
// NaNs by their bits within each sign. Descending order reverses that order; equal keys keep their
// input order in both directions (the sort is stable). A bit range [begin_bit, end_bit) sorts by
// those bits of the image alone.
//
// Device API: device memory, asynchronous on `stream`. Keys: int8..int64, uint8..uint64, float,
// double, __half and __nv_bfloat16 (CUDA's 16-bit floats, in the same total order); values: any
// 4- or 8-byte trivially copyable type; index mode emits each key's input position (uint32 or
// int64) instead of reading values. Outputs must not overlap inputs, except in the double-buffer
// form, which sorts within two buffers the caller owns and needs no copy of the data in the
// workspace. Host API (namespace bkt::host): host memory, GPU when usable, else a parallel CPU
// radix sort (core/src/radix_sort/cpu_sort.hpp).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstdint>
#include <span>
#include <type_traits>

#include "bkt/backend.hpp"
#include "bkt/radix_sort_types.hpp"
#include "bkt/workspace.hpp"

namespace bkt {

/// The number of passes a sort of `key_bytes`-byte keys makes with `options`.
int radix_sort_passes(std::size_t key_bytes, const radix_sort_options& options = {});

/// Bytes of workspace one sort needs. value_bytes: 0 for keys alone, else the value (or index) size;
/// a workspace of the size for values also serves a sort of the same keys alone.
std::size_t radix_sort_workspace_bytes(std::int64_t num_items, std::size_t key_bytes, std::size_t value_bytes = 0,
                                       const radix_sort_options& options = {},
                                       radix_sort_form form = radix_sort_form::separate_output);

/// Two device buffers of one size; `current` selects the one that holds the data. A sort reads
/// buffers[current], may overwrite both, and leaves the result in buffers[current] when it returns.
template <class T>
struct double_buffer {
  std::span<T> buffers[2];
  int current = 0;
  std::span<T> data() const { return buffers[current]; }
  std::span<T> spare() const { return buffers[current ^ 1]; }
};

/// keys_out = keys_in sorted stably.
template <class Key>
void radix_sort_keys(std::span<const std::type_identity_t<Key>> keys_in, std::span<Key> keys_out, workspace& ws,
                     cudaStream_t stream, const radix_sort_options& options = {});

/// Sorts keys.data() within the two buffers.
template <class Key>
void radix_sort_keys(double_buffer<Key>& keys, workspace& ws, cudaStream_t stream,
                     const radix_sort_options& options = {});

namespace detail {
template <std::size_t Bytes>
using radix_value_word = std::conditional_t<Bytes == 4, std::uint32_t, std::uint64_t>;
template <class Key, class Word>
void radix_sort_pairs(std::span<const Key>, std::span<const Word>, std::span<Key>, std::span<Word>, workspace&,
                      cudaStream_t, const radix_sort_options&);
template <class Key, class Word>
void radix_sort_pairs(double_buffer<Key>&, double_buffer<Word>&, workspace&, cudaStream_t, const radix_sort_options&);

template <class To, class From>
std::span<To> words_of(std::span<From> s) {
  return {reinterpret_cast<To*>(s.data()), s.size()};
}
template <class To, class From>
double_buffer<To> words_of(const double_buffer<From>& b) {
  return {{words_of<To>(b.buffers[0]), words_of<To>(b.buffers[1])}, b.current};
}
}  // namespace detail

/// keys_out and values_out = the pairs sorted stably by key.
template <class Key, class Value>
void radix_sort_pairs(std::span<const std::type_identity_t<Key>> keys_in,
                      std::span<const std::type_identity_t<Value>> values_in, std::span<Key> keys_out,
                      std::span<Value> values_out, workspace& ws, cudaStream_t stream,
                      const radix_sort_options& options = {}) {
  static_assert((sizeof(Value) == 4 || sizeof(Value) == 8) && std::is_trivially_copyable_v<Value>,
                "values: trivially copyable, 4 or 8 bytes");
  using word = detail::radix_value_word<sizeof(Value)>;
  detail::radix_sort_pairs<Key, word>(keys_in, detail::words_of<const word>(values_in), keys_out,
                                      detail::words_of<word>(values_out), ws, stream, options);
}

/// Sorts the pairs within the buffers; keys.current and values.current must agree.
template <class Key, class Value>
void radix_sort_pairs(double_buffer<Key>& keys, double_buffer<Value>& values, workspace& ws, cudaStream_t stream,
                      const radix_sort_options& options = {}) {
  static_assert((sizeof(Value) == 4 || sizeof(Value) == 8) && std::is_trivially_copyable_v<Value>,
                "values: trivially copyable, 4 or 8 bytes");
  using word = detail::radix_value_word<sizeof(Value)>;
  auto words = detail::words_of<word>(values);
  detail::radix_sort_pairs<Key, word>(keys, words, ws, stream, options);
  values.current = words.current;
}

/// Index mode (argsort): indices_out[j] = the input position of the j-th key in sorted order;
/// keys_out receives the sorted keys unless it is empty. Index is std::uint32_t (n <= 2^32) or
/// std::int64_t.
template <class Key, class Index>
void radix_sort_indices(std::span<const std::type_identity_t<Key>> keys_in, std::span<Key> keys_out,
                        std::span<Index> indices_out, workspace& ws, cudaStream_t stream,
                        const radix_sort_options& options = {});

namespace host {

/// Host-memory sorts: the GPU when usable (the data must fit in its memory with the workspace),
/// else a stable radix sort on every CPU core the process may use (same order; bkt::ref stays the
/// simple reference). An output may be its input itself (in place); it may not overlap otherwise.
template <class Key>
void radix_sort_keys(std::span<const std::type_identity_t<Key>> keys_in, std::span<Key> keys_out,
                     const radix_sort_options& options = {}, backend where = backend::automatic);

namespace detail {
template <class Key, class Word>
void radix_sort_pairs(std::span<const Key>, std::span<const Word>, std::span<Key>, std::span<Word>,
                      const radix_sort_options&, backend);
}  // namespace detail

template <class Key, class Value>
void radix_sort_pairs(std::span<const std::type_identity_t<Key>> keys_in,
                      std::span<const std::type_identity_t<Value>> values_in, std::span<Key> keys_out,
                      std::span<Value> values_out, const radix_sort_options& options = {},
                      backend where = backend::automatic) {
  static_assert((sizeof(Value) == 4 || sizeof(Value) == 8) && std::is_trivially_copyable_v<Value>,
                "values: trivially copyable, 4 or 8 bytes");
  using word = bkt::detail::radix_value_word<sizeof(Value)>;
  detail::radix_sort_pairs<Key, word>(keys_in, bkt::detail::words_of<const word>(values_in), keys_out,
                                      bkt::detail::words_of<word>(values_out), options, where);
}

/// Host-memory argsort; keys_out may be empty.
template <class Key, class Index>
void radix_sort_indices(std::span<const std::type_identity_t<Key>> keys_in, std::span<Key> keys_out,
                        std::span<Index> indices_out, const radix_sort_options& options = {},
                        backend where = backend::automatic);

}  // namespace host
}  // namespace bkt
