// Selection algorithms kept for measurement, not offered by bkt/select.hpp: each lost to the
// default (the two-pivot filter) on every input measured (docs/primitives/select.md, "Which
// algorithm, when"). bench/select_bench.cu times them as baselines and the GPU tests check them
// against bkt::ref through these entry points. Plain C++.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <span>
#include <type_traits>

#include "bkt/select_types.hpp"
#include "bkt/workspace.hpp"

namespace bkt::detail {

/// none: the public calls' algorithm. sample_select: SampleSelect (Ribizel and Anzt): up to 127
/// splitters from a sorted sample of 4096 with an equality bucket each, a count pass, and the
/// target bucket stored for the next level; quickselect: the same levels with one random pivot
/// (three buckets); bucket_select: 127 splitters evenly spaced over the level's words (radix
/// select). These three synchronize the stream once or twice per level, serve select_kth and
/// multiselect of up to 16 distinct ranks (more ranks run the default's bucket passes) and have
/// no top_k (the tie rule needs the positions that only the two-pivot filter keeps). radix_sort:
/// sorts a copy of the selection words and reads the ranks, or for top_k sorts every position;
/// about 3n elements of workspace, beyond the n/4 that bkt/select.hpp promises.
enum class select_baseline { none, sample_select, quickselect, bucket_select, radix_sort };

/// bkt::select_kth by `baseline`; options.seed seeds the sampling.
template <class T>
void select_kth_baseline(std::span<const std::type_identity_t<T>> data, std::int64_t k, T* result, workspace& ws,
                         cudaStream_t stream, select_baseline baseline, const select_options& options);

/// bkt::multiselect by `baseline`.
template <class T>
void multiselect_baseline(std::span<const std::type_identity_t<T>> data, std::span<const std::int64_t> ranks,
                          std::span<T> results, workspace& ws, cudaStream_t stream, select_baseline baseline,
                          const select_options& options);

/// bkt::top_k by `baseline`: none or radix_sort; the others throw bkt::error.
template <class T, class Index>
void top_k_baseline(std::span<const std::type_identity_t<T>> data, std::int64_t k, std::span<T> values_out,
                    std::span<Index> indices_out, workspace& ws, cudaStream_t stream, select_baseline baseline,
                    const top_k_options& options);

/// top_k_pairs_baseline on the values' 4- or 8-byte words.
template <class T, class Word>
void top_k_pairs_baseline_words(std::span<const T> keys, std::span<const Word> values, std::int64_t k,
                                std::span<T> keys_out, std::span<Word> values_out, workspace& ws, cudaStream_t stream,
                                select_baseline baseline, const top_k_options& options);

/// bkt::top_k_pairs by `baseline`, as top_k_baseline.
template <class T, class Value>
void top_k_pairs_baseline(std::span<const std::type_identity_t<T>> keys,
                          std::span<const std::type_identity_t<Value>> values, std::int64_t k, std::span<T> keys_out,
                          std::span<Value> values_out, workspace& ws, cudaStream_t stream, select_baseline baseline,
                          const top_k_options& options) {
  static_assert((sizeof(Value) == 4 || sizeof(Value) == 8) && std::is_trivially_copyable_v<Value>,
                "values: trivially copyable, 4 or 8 bytes");
  using word = std::conditional_t<sizeof(Value) == 4, std::uint32_t, std::uint64_t>;
  top_k_pairs_baseline_words<T, word>(keys, {reinterpret_cast<const word*>(values.data()), values.size()}, k,
                                      keys_out, {reinterpret_cast<word*>(values_out.data()), values_out.size()}, ws,
                                      stream, baseline, options);
}

}  // namespace bkt::detail
