// select_kth and top_k over one array (bkt/select.hpp): argument checks, the position type, the
// algorithm, then outputs. Each instantiation file expands these for its types.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <string>

#include "bkt/detail/arguments.hpp"
#include "bkt/detail/workspace_layout.hpp"
#include "bkt/radix_sort.hpp"
#include "bkt/select.hpp"
#include "outputs.cuh"
#include "two_pivot.cuh"

namespace bkt::detail::select {

/// Calls f.template operator()<P>() with the narrowest position type that numbers `size` records.
template <class F>
decltype(auto) with_positions(std::int64_t size, F&& f) {
  if (size <= std::int64_t{1} << 32) return f.template operator()<std::uint32_t>();
  return f.template operator()<std::uint64_t>();
}

template <class T>
__global__ void oriented_words_kernel(const T* data, std::int64_t size, bool largest, radix_word<T>* words) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < size;
       i += std::int64_t{gridDim.x} * blockDim.x)
    words[i] = oriented_word(data[i], largest);
}

/// The baseline: argsort of the oriented words (stable, so equal words keep position order).
/// Leaves every position in rank order in the workspace and returns it.
template <class T, class P>
P* positions_by_sorting(const T* data, std::int64_t size, bool largest, workspace& ws, cudaStream_t stream) {
  using W = radix_word<T>;
  using index = std::conditional_t<sizeof(P) == 4, std::uint32_t, std::int64_t>;  // radix_sort_indices' types
  workspace_layout layout;
  const auto words_at = layout.add(sizeof(W) * size);
  const auto order_at = layout.add(sizeof(P) * size);
  const auto sort_bytes = radix_sort_workspace_bytes(size, sizeof(W), sizeof(P), {}, radix_sort_form::indices_only);
  const auto sort_at = layout.add(sort_bytes);
  void* base = ws.reserve(layout.total_bytes(), stream);
  auto* words = slice_at<W>(base, words_at);
  auto* order = slice_at<index>(base, order_at);
  const auto blocks = static_cast<unsigned>(std::min<std::int64_t>((size + 255) / 256, 8192));
  oriented_words_kernel<<<blocks, 256, 0, stream>>>(data, size, largest, words);
  BKT_CHECK_LAUNCH(stream);
  workspace sort_ws(slice_at<std::byte>(base, sort_at), sort_bytes);
  radix_sort_indices<W, index>(std::span<const W>(words, size), std::span<W>(), std::span<index>(order, size),
                               sort_ws, stream);
  return reinterpret_cast<P*>(order);
}

inline void check_rank(const char* call, std::int64_t k, std::int64_t size, bool inclusive) {
  if (k < 0 || k > size || (!inclusive && k == size))
    throw_argument(std::string(call) + ": k = " + std::to_string(k) + " is outside [0, " + std::to_string(size) +
                   (inclusive ? "]" : ")") + " for " + std::to_string(size) + " elements");
}

template <class T>
void select_kth(std::span<const T> data, std::int64_t k, T* result, workspace& ws, cudaStream_t stream,
                const select_options& options) {
  expect_data("select_kth", "data", data);
  const auto size = static_cast<std::int64_t>(data.size());
  check_rank("select_kth", k, size, false);
  if (result == nullptr) throw_argument("select_kth: the result pointer is null");
  with_positions(size, [&]<class P>() {
    const P* selected;
    if (options.algorithm == select_algorithm::radix_sort) {
      selected = positions_by_sorting<T, P>(data.data(), size, false, ws, stream) + k;
    } else {
      void* base = ws.reserve(two_pivot_search<T, P>::workspace_bytes(size), stream);
      selected = two_pivot_search<T, P>(data.data(), size, false, options.seed, base).run(k, nullptr, stream);
    }
    value_at_kernel<<<1, 1, 0, stream>>>(data.data(), selected, result);
    BKT_CHECK_LAUNCH(stream);
  });
}

/// The positions of the top k, in rank order when options.sorted; they live in the workspace.
template <class T, class P>
const P* top_k_positions(const T* data, std::int64_t size, std::int64_t k, workspace& ws, cudaStream_t stream,
                         const top_k_options& options) {
  using W = radix_word<T>;
  if (options.algorithm == select_algorithm::radix_sort)
    return positions_by_sorting<T, P>(data, size, options.largest, ws, stream);
  // The search's buffers are done with before the sort needs its own: they share memory.
  workspace_layout layout;
  const auto taken_at = layout.add(sizeof(P) * k);
  workspace_layout sorting;
  const auto spare_at = sorting.add(sizeof(P) * k);
  const std::size_t words_at[2] = {sorting.add(sizeof(W) * k), sorting.add(sizeof(W) * k)};
  const auto scratch_bytes = sort_positions_bytes<T, P>(k);
  const auto scratch_at = sorting.add(scratch_bytes);
  const auto shared_at = layout.add(std::max(two_pivot_search<T, P>::workspace_bytes(size),
                                             options.sorted ? sorting.total_bytes() : std::size_t{0}));
  void* base = ws.reserve(layout.total_bytes(), stream);
  auto* taken = slice_at<P>(base, taken_at);
  void* shared = slice_at<std::byte>(base, shared_at);
  two_pivot_search<T, P>(data, size, options.largest, options.seed, shared).run(k - 1, taken, stream);
  if (!options.sorted) return taken;
  W* words[2] = {slice_at<W>(shared, words_at[0]), slice_at<W>(shared, words_at[1])};
  return sort_positions<T, P>(data, options.largest, taken, slice_at<P>(shared, spare_at), words, k,
                              slice_at<std::byte>(shared, scratch_at), scratch_bytes, stream);
}

/// top_k and top_k_pairs: keys_out gets the selected keys, values_out the carried values (or the
/// positions when `values` is null).
template <class T, class V>
void top_k(const char* call, std::span<const T> keys, const V* values, std::int64_t k, std::span<T> keys_out,
           std::span<V> values_out, workspace& ws, cudaStream_t stream, const top_k_options& options) {
  expect_data(call, "data", keys);
  const auto size = static_cast<std::int64_t>(keys.size());
  check_rank(call, k, size, true);
  if (!keys_out.empty()) expect_capacity(call, "key output", keys_out, static_cast<std::size_t>(k));
  if (!values_out.empty()) expect_capacity(call, "value output", values_out, static_cast<std::size_t>(k));
  if (values == nullptr && !values_out.empty() && size > 0 &&
      static_cast<std::uint64_t>(size) - 1 > static_cast<std::uint64_t>(std::numeric_limits<V>::max()))
    throw_argument(std::string(call) + ": " + std::to_string(size) + " positions do not fit the index type");
  if (k == 0 || (keys_out.empty() && values_out.empty())) return;
  with_positions(size, [&]<class P>() {
    const P* positions = top_k_positions<T, P>(keys.data(), size, k, ws, stream, options);
    gather<T, P, V>(keys.data(), values, positions, k, keys_out.empty() ? nullptr : keys_out.data(),
                    values_out.empty() ? nullptr : values_out.data(), stream);
  });
}

}  // namespace bkt::detail::select

namespace bkt {

template <class T>
void select_kth(std::span<const std::type_identity_t<T>> data, std::int64_t k, T* result, workspace& ws,
                cudaStream_t stream, const select_options& options) {
  detail::select::select_kth<T>(data, k, result, ws, stream, options);
}

template <class T, class Index>
void top_k(std::span<const std::type_identity_t<T>> data, std::int64_t k, std::span<T> values_out,
           std::span<Index> indices_out, workspace& ws, cudaStream_t stream, const top_k_options& options) {
  detail::select::top_k<T, Index>("top_k", data, nullptr, k, values_out, indices_out, ws, stream, options);
}

template <class T, class Word>
void detail::top_k_pairs(std::span<const T> keys, std::span<const Word> values, std::int64_t k, std::span<T> keys_out,
                         std::span<Word> values_out, workspace& ws, cudaStream_t stream,
                         const top_k_options& options) {
  expect_data("top_k_pairs", "values", values);
  expect_same_size("top_k_pairs", "keys", keys.size(), "values", values.size());
  select::top_k<T, Word>("top_k_pairs", keys, values.data(), k, keys_out, values_out, ws, stream, options);
}

}  // namespace bkt
