// select_kth and top_k over one array (bkt/select.hpp, and the baselines of
// bkt/detail/select/baselines.hpp): argument checks, the position type, the algorithm, then
// outputs. Each instantiation file expands these for its types.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "bkt/detail/arguments.hpp"
#include "bkt/detail/select/arguments.hpp"
#include "bkt/detail/select/baselines.hpp"
#include "bkt/detail/workspace_layout.hpp"
#include "bkt/radix_sort.hpp"
#include "bkt/select.hpp"
#include "outputs.cuh"
#include "splitter_search.cuh"
#include "two_pivot.cuh"

namespace bkt::detail::select {

/// Calls f.template operator()<P>() with the narrowest position type that numbers `size` records.
template <class F>
decltype(auto) with_positions(std::int64_t size, F&& f) {
  if (size <= std::int64_t{1} << 32) return f.template operator()<std::uint32_t>();
  return f.template operator()<std::uint64_t>();
}

/// The baseline: argsort of the oriented words (stable, so equal words keep position order).
/// Leaves every position in rank order in the workspace and returns it, with `extra_bytes` of the
/// workspace after it for the caller (at *extra).
template <class T, class P>
P* positions_by_sorting(const T* data, std::int64_t size, bool largest, workspace& ws, cudaStream_t stream,
                        std::size_t extra_bytes = 0, void** extra = nullptr) {
  using W = radix_word<T>;
  using index = std::conditional_t<sizeof(P) == 4, std::uint32_t, std::int64_t>;  // radix_sort_indices' types
  workspace_layout layout;
  const auto words_at = layout.add(sizeof(W) * size);
  const auto order_at = layout.add(sizeof(P) * size);
  const auto sort_bytes = radix_sort_workspace_bytes(size, sizeof(W), sizeof(P), {}, radix_sort_form::indices_only);
  const auto sort_at = layout.add(sort_bytes);
  const auto extra_at = layout.add(extra_bytes);
  void* base = ws.reserve(layout.total_bytes(), stream);
  if (extra != nullptr) *extra = slice_at<std::byte>(base, extra_at);
  auto* words = slice_at<W>(base, words_at);
  auto* order = slice_at<index>(base, order_at);
  oriented_words<T, P>(data, nullptr, size, largest, words, stream);
  workspace sort_ws(slice_at<std::byte>(base, sort_at), sort_bytes);
  radix_sort_indices<W, index>(std::span<const W>(words, size), std::span<W>(), std::span<index>(order, size),
                               sort_ws, stream);
  return reinterpret_cast<P*>(order);
}

/// The splitter rule of the baselines that run splitter_search, or none.
inline std::optional<splitter_rule> splitter_rule_of(select_baseline baseline) {
  switch (baseline) {
    case select_baseline::sample_select: return splitter_rule::sampled;
    case select_baseline::quickselect: return splitter_rule::single_pivot;
    case select_baseline::bucket_select: return splitter_rule::evenly_spaced;
    default: return std::nullopt;
  }
}

/// top_k runs the two-pivot filter or sorts: the splitter searches keep no positions.
inline void expect_top_k_baseline(const char* call, select_baseline baseline) {
  if (splitter_rule_of(baseline))
    throw_argument(std::string(call) + ": no top_k for this baseline (none and radix_sort have one)");
}

/// select_kth by the default (baseline none) or a baseline.
template <class T>
void select_kth(std::span<const T> data, std::int64_t k, T* result, workspace& ws, cudaStream_t stream,
                std::uint64_t seed, select_baseline baseline) {
  expect_data("select_kth", "data", data);
  expect_rank("select_kth", k, data.size());
  const auto size = static_cast<std::int64_t>(data.size());
  if (result == nullptr) throw_argument("select_kth: the result pointer is null");
  if (const auto rule = splitter_rule_of(baseline)) {
    void* base = ws.reserve(splitter_search<T>::workspace_bytes(size), stream);
    const T value = splitter_search<T>(data.data(), size, *rule, seed, base).run(k, stream);
    // From pageable memory the copy has read `value` by the time it returns.
    BKT_CUDA_CHECK(cudaMemcpyAsync(result, &value, sizeof(T), cudaMemcpyHostToDevice, stream));
    return;
  }
  with_positions(size, [&]<class P>() {
    const P* selected;
    if (baseline == select_baseline::radix_sort) {
      selected = positions_by_sorting<T, P>(data.data(), size, false, ws, stream) + k;
    } else {
      void* base = ws.reserve(two_pivot_search<T, P>::workspace_bytes(size), stream);
      selected = two_pivot_search<T, P>(data.data(), size, false, seed, base).run(k, nullptr, stream);
    }
    gather<T, P, P>(data.data(), nullptr, selected, 1, result, nullptr, stream);
  });
}

/// The positions of the top k, in rank order when options.sorted; they live in the workspace.
/// `baseline`: none or radix_sort.
template <class T, class P>
const P* top_k_positions(const T* data, std::int64_t size, std::int64_t k, workspace& ws, cudaStream_t stream,
                         const top_k_options& options, select_baseline baseline) {
  using W = radix_word<T>;
  if (baseline == select_baseline::radix_sort)
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

/// top_k and top_k_pairs, after their checks: keys_out gets the selected keys, values_out the
/// carried values (or the positions when `values` is null); an empty output is skipped.
template <class T, class V>
void top_k(std::span<const T> keys, const V* values, std::int64_t k, std::span<T> keys_out, std::span<V> values_out,
           workspace& ws, cudaStream_t stream, const top_k_options& options, select_baseline baseline) {
  if (k == 0 || (keys_out.empty() && values_out.empty())) return;
  const auto size = static_cast<std::int64_t>(keys.size());
  with_positions(size, [&]<class P>() {
    const P* positions = top_k_positions<T, P>(keys.data(), size, k, ws, stream, options, baseline);
    gather<T, P, V>(keys.data(), values, positions, k, keys_out.empty() ? nullptr : keys_out.data(),
                    values_out.empty() ? nullptr : values_out.data(), stream);
  });
}

/// top_k by `baseline`, after its checks.
template <class T, class Index>
void top_k_checked(std::span<const T> data, std::int64_t k, std::span<T> values_out, std::span<Index> indices_out,
                   workspace& ws, cudaStream_t stream, const top_k_options& options, select_baseline baseline) {
  check_top_k<T>("top_k", data, k, "values_out", values_out, "indices_out", indices_out);
  expect_index_fits<Index>("top_k", data.size());
  top_k<T, Index>(data, nullptr, k, values_out, indices_out, ws, stream, options, baseline);
}

/// top_k_pairs by `baseline`, after its checks.
template <class T, class Word>
void top_k_pairs_checked(std::span<const T> keys, std::span<const Word> values, std::int64_t k, std::span<T> keys_out,
                         std::span<Word> values_out, workspace& ws, cudaStream_t stream, const top_k_options& options,
                         select_baseline baseline) {
  check_top_k<T>("top_k_pairs", keys, k, "keys_out", keys_out, "values_out", values_out);
  expect_data("top_k_pairs", "values", values);
  expect_same_size("top_k_pairs", "keys", keys.size(), "values", values.size());
  top_k<T, Word>(keys, values.data(), k, keys_out, values_out, ws, stream, options, baseline);
}

}  // namespace bkt::detail::select

namespace bkt {

template <class T>
void select_kth(std::span<const std::type_identity_t<T>> data, std::int64_t k, T* result, workspace& ws,
                cudaStream_t stream, const select_options& options) {
  detail::select::select_kth<T>(data, k, result, ws, stream, options.seed, detail::select_baseline::none);
}

template <class T, class Index>
void top_k(std::span<const std::type_identity_t<T>> data, std::int64_t k, std::span<T> values_out,
           std::span<Index> indices_out, workspace& ws, cudaStream_t stream, const top_k_options& options) {
  detail::select::top_k_checked<T, Index>(data, k, values_out, indices_out, ws, stream, options,
                                          detail::select_baseline::none);
}

template <class T, class Word>
void detail::top_k_pairs(std::span<const T> keys, std::span<const Word> values, std::int64_t k, std::span<T> keys_out,
                         std::span<Word> values_out, workspace& ws, cudaStream_t stream,
                         const top_k_options& options) {
  select::top_k_pairs_checked<T, Word>(keys, values, k, keys_out, values_out, ws, stream, options,
                                       select_baseline::none);
}

template <class T>
void detail::select_kth_baseline(std::span<const std::type_identity_t<T>> data, std::int64_t k, T* result,
                                 workspace& ws, cudaStream_t stream, select_baseline baseline,
                                 const select_options& options) {
  select::select_kth<T>(data, k, result, ws, stream, options.seed, baseline);
}

template <class T, class Index>
void detail::top_k_baseline(std::span<const std::type_identity_t<T>> data, std::int64_t k, std::span<T> values_out,
                            std::span<Index> indices_out, workspace& ws, cudaStream_t stream,
                            select_baseline baseline, const top_k_options& options) {
  select::expect_top_k_baseline("top_k", baseline);
  select::top_k_checked<T, Index>(data, k, values_out, indices_out, ws, stream, options, baseline);
}

template <class T, class Word>
void detail::top_k_pairs_baseline_words(std::span<const T> keys, std::span<const Word> values, std::int64_t k,
                                        std::span<T> keys_out, std::span<Word> values_out, workspace& ws,
                                        cudaStream_t stream, select_baseline baseline, const top_k_options& options) {
  select::expect_top_k_baseline("top_k_pairs", baseline);
  select::top_k_pairs_checked<T, Word>(keys, values, k, keys_out, values_out, ws, stream, options, baseline);
}

}  // namespace bkt
