// Selection: the k-th smallest element, many ranks at once, an approximate rank with its error,
// and the k largest (or smallest) elements with their positions or the caller's values.
//
// Order: elements compare in the selection order
//   -inf < ... < -denormals < -0.0 < +0.0 < +denormals < ... < +inf < NaN,
// where every NaN, of either sign and any payload, counts as larger than every number and equal to
// every other NaN (as PyTorch orders them); integers compare numerically. Ranks are 0-based in
// ascending order. Among equal elements the one at the smaller input position comes first: top_k
// keeps the smaller positions when ties straddle the k-th place, always (the result is the same on
// every run and on the CPU path), and its sorted output lists equal keys by position.
//
// Algorithms (bkt/detail/select/): the randomized two-pivot filter (Monroe et al.) reads the input
// once and keeps what lies between two pivots drawn from a sorted sample; one cooperative kernel
// then narrows those records by histograms of their span until one block sorts the rest.
// approx_select ranks sampled candidates in one counting pass. multiselect runs a search per rank
// for up to 16 distinct ranks; beyond that up to 16383 buckets chosen from a sample (equal-mass
// parts of equal-width cells, or splitters with equality buckets when the sample shows heavy
// values) are counted in one pass and those holding ranks gathered in a second, then searched by
// radix digits, or sorted when one holds more than 4 ranks. The inputs are never modified.
// Auxiliary device memory stays below n/4 elements plus the k positions of top_k and O(ranks) for
// multiselect (except for inputs of fewer than about 2^16 elements, whose fixed parts may exceed
// n/4). The two-pivot filter synchronizes `stream` once per call (the host checks that the first
// window holds the target), multiselect's bucket passes once (the host batches the buckets to
// gather).
//
// Device API: device memory, on `stream`; types int32, uint32, int64, uint64, float, double.
// Host API (bkt::host): host memory, the GPU when usable, else the CPU reference (bkt/ref/select.hpp).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <span>
#include <type_traits>

#include "bkt/backend.hpp"
#include "bkt/select_types.hpp"
#include "bkt/workspace.hpp"

namespace bkt {

/// *result (device memory) = the element of rank k; 0 <= k < data.size().
template <class T>
void select_kth(std::span<const std::type_identity_t<T>> data, std::int64_t k, T* result, workspace& ws,
                cudaStream_t stream, const select_options& options = {});

/// results[i] (device memory) = the element of rank ranks[i]; ranks in host memory, any order,
/// repeats allowed, each in [0, data.size()). Pageable ranks are read before the call returns;
/// pinned ones must stay unchanged until `stream` has run the call.
template <class T>
void multiselect(std::span<const std::type_identity_t<T>> data, std::span<const std::int64_t> ranks,
                 std::span<T> results, workspace& ws, cudaStream_t stream, const select_options& options = {});

/// *result (device memory) = an element near rank k, with its exact ranks and rank error, after a
/// single read of the input. 0 <= k < data.size().
template <class T>
void approx_select(std::span<const std::type_identity_t<T>> data, std::int64_t k, approx_selection<T>* result,
                   workspace& ws, cudaStream_t stream, const approx_select_options& options = {});

/// The k largest (or smallest) elements of `data`: their values into values_out and their input
/// positions into indices_out (Index: std::uint32_t when data.size() <= 2^32, or std::int64_t).
/// Either output may be empty to skip it; a non-empty one holds at least k elements.
/// 0 <= k <= data.size().
template <class T, class Index>
void top_k(std::span<const std::type_identity_t<T>> data, std::int64_t k, std::span<T> values_out,
           std::span<Index> indices_out, workspace& ws, cudaStream_t stream, const top_k_options& options = {});

/// As top_k, with the caller's values (any 4- or 8-byte trivially copyable type) carried along
/// instead of positions: values_out[j] = values[position of the j-th selected key].
namespace detail {
template <class T, class Word>
void top_k_pairs(std::span<const T>, std::span<const Word>, std::int64_t, std::span<T>, std::span<Word>, workspace&,
                 cudaStream_t, const top_k_options&);
}  // namespace detail

template <class T, class Value>
void top_k_pairs(std::span<const std::type_identity_t<T>> keys, std::span<const std::type_identity_t<Value>> values,
                 std::int64_t k, std::span<T> keys_out, std::span<Value> values_out, workspace& ws,
                 cudaStream_t stream, const top_k_options& options = {}) {
  static_assert((sizeof(Value) == 4 || sizeof(Value) == 8) && std::is_trivially_copyable_v<Value>,
                "values: trivially copyable, 4 or 8 bytes");
  using word = std::conditional_t<sizeof(Value) == 4, std::uint32_t, std::uint64_t>;
  detail::top_k_pairs<T, word>(keys, {reinterpret_cast<const word*>(values.data()), values.size()}, k, keys_out,
                               {reinterpret_cast<word*>(values_out.data()), values_out.size()}, ws, stream, options);
}

/// Row-wise top_k of a rows x cols row-major matrix (data.size() == rows * cols): row r's
/// selection lands in values_out/indices_out[r * k, (r + 1) * k), indices within the row.
template <class T, class Index>
void top_k_batched(std::span<const std::type_identity_t<T>> data, std::int64_t rows, std::int64_t k,
                   std::span<T> values_out, std::span<Index> indices_out, workspace& ws, cudaStream_t stream,
                   const top_k_options& options = {});

namespace host {

template <class T>
T select_kth(std::span<const std::type_identity_t<T>> data, std::int64_t k, const select_options& options = {},
             backend where = backend::automatic);

template <class T>
void multiselect(std::span<const std::type_identity_t<T>> data, std::span<const std::int64_t> ranks,
                 std::span<T> results, const select_options& options = {}, backend where = backend::automatic);

template <class T>
approx_selection<T> approx_select(std::span<const std::type_identity_t<T>> data, std::int64_t k,
                                  const approx_select_options& options = {}, backend where = backend::automatic);

template <class T, class Index>
void top_k(std::span<const std::type_identity_t<T>> data, std::int64_t k, std::span<T> values_out,
           std::span<Index> indices_out, const top_k_options& options = {}, backend where = backend::automatic);

template <class T, class Index>
void top_k_batched(std::span<const std::type_identity_t<T>> data, std::int64_t rows, std::int64_t k,
                   std::span<T> values_out, std::span<Index> indices_out, const top_k_options& options = {},
                   backend where = backend::automatic);

}  // namespace host
}  // namespace bkt
