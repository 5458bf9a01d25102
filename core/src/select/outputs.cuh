// Turning selected positions into the caller's outputs: the value at a position, the position
// itself in the caller's index type, or the caller's value carried along; and the sorted order.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <span>

#include "bkt/detail/select/records.cuh"
#include "bkt/error.hpp"
#include "bkt/radix_sort.hpp"

namespace bkt::detail::select {

/// out_keys[j] = keys[positions[j]] and out_values[j] = values ? values[positions[j]] : positions[j]
/// (either output may be null).
template <class T, class P, class V>
__global__ void gather_kernel(const T* keys, const V* values, const P* positions, std::int64_t count, T* out_keys,
                              V* out_values) {
  for (std::int64_t j = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; j < count;
       j += std::int64_t{gridDim.x} * blockDim.x) {
    const P p = positions[j];
    if (out_keys) out_keys[j] = keys[p];
    if (out_values) out_values[j] = values ? values[p] : static_cast<V>(p);
  }
}

template <class T, class P, class V>
void gather(const T* keys, const V* values, const P* positions, std::int64_t count, T* out_keys, V* out_values,
            cudaStream_t stream) {
  if (count == 0 || (!out_keys && !out_values)) return;
  const auto blocks = static_cast<unsigned>(std::min<std::int64_t>((count + 255) / 256, 4096));
  gather_kernel<<<blocks, 256, 0, stream>>>(keys, values, positions, count, out_keys, out_values);
  BKT_CHECK_LAUNCH(stream);
}

/// words[j] = the oriented word of data[positions[j]], or of data[j] when positions is null.
template <class T, class P>
__global__ void oriented_words_kernel(const T* data, const P* positions, std::int64_t count, bool largest,
                                      radix_word<T>* words) {
  for (std::int64_t j = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; j < count;
       j += std::int64_t{gridDim.x} * blockDim.x)
    words[j] = oriented_word(data[positions ? static_cast<std::int64_t>(positions[j]) : j], largest);
}

template <class T, class P>
void oriented_words(const T* data, const P* positions, std::int64_t count, bool largest, radix_word<T>* words,
                    cudaStream_t stream) {
  if (count == 0) return;
  const auto blocks = static_cast<unsigned>(std::min<std::int64_t>((count + 255) / 256, 8192));
  oriented_words_kernel<<<blocks, 256, 0, stream>>>(data, positions, count, largest, words);
  BKT_CHECK_LAUNCH(stream);
}

/// Bytes sort_positions needs beside its two buffers.
template <class T, class P>
std::size_t sort_positions_bytes(std::int64_t count) {
  return std::max(radix_sort_workspace_bytes(count, sizeof(P), 0, {}, radix_sort_form::double_buffer),
                  radix_sort_workspace_bytes(count, sizeof(radix_word<T>), sizeof(P), {},
                                             radix_sort_form::double_buffer));
}

/// Orders `positions` (count of them, in positions[0..count)) by (oriented word, position): two
/// stable sorts, by position then by word. words[2] and spare hold `count` each; `scratch` holds
/// sort_positions_bytes. Returns where the sorted positions are (positions or spare).
template <class T, class P>
P* sort_positions(const T* data, bool largest, P* positions, P* spare, radix_word<T>* words[2], std::int64_t count,
                  void* scratch, std::size_t scratch_bytes, cudaStream_t stream) {
  using W = radix_word<T>;
  if (count <= 1) return positions;
  workspace ws(scratch, scratch_bytes);
  double_buffer<P> p{{std::span<P>(positions, count), std::span<P>(spare, count)}, 0};
  radix_sort_keys<P>(p, ws, stream);
  oriented_words<T, P>(data, p.data().data(), count, largest, words[0], stream);
  double_buffer<W> w{{std::span<W>(words[0], count), std::span<W>(words[1], count)}, 0};
  radix_sort_pairs<W, P>(w, p, ws, stream);
  return p.data().data();
}

}  // namespace bkt::detail::select
