// The sort's small kernels: the regular sample of a sorted run, the counts before each splitter
// (the same search as the CPU simulation, bkt/dist/detail/splitter.hpp), and the shift of local
// positions to global ones.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>

#include "bkt/dist/detail/order_image.hpp"
#include "bkt/dist/detail/splitter.hpp"
#include "bkt/error.hpp"

namespace bkt::dist::detail {

template <class Key>
__global__ void sample_kernel(const Key* sorted, std::int64_t step, std::int64_t count, bool descending,
                              std::uint64_t* out) {
  for (std::int64_t j = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; j < count;
       j += std::int64_t{gridDim.x} * blockDim.x)
    out[j] = order_image(sorted[(j + 1) * step - 1], descending);
}

template <class Key>
__global__ void bounds_kernel(const Key* sorted, std::int64_t num_items, const splitter* splitters, int num_splitters,
                              int rank, bool descending, std::int64_t* out) {
  const int b = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (b < num_splitters) out[b] = elements_before(image_reader<Key>{sorted, descending}, num_items, splitters[b], rank);
}

template <class Word>
__global__ void add_offset_kernel(Word* data, std::int64_t count, std::int64_t offset) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < count;
       i += std::int64_t{gridDim.x} * blockDim.x)
    data[i] = static_cast<Word>(static_cast<std::int64_t>(data[i]) + offset);
}

/// out[j] = order image of sorted[(j + 1) step - 1] for j < count.
template <class Key>
void extract_samples(const Key* sorted, std::int64_t step, std::int64_t count, bool descending, std::uint64_t* out,
                     cudaStream_t stream) {
  if (count == 0) return;
  const auto blocks = static_cast<unsigned>(std::min<std::int64_t>((count + 255) / 256, 1024));
  sample_kernel<<<blocks, 256, 0, stream>>>(sorted, step, count, descending, out);
  BKT_CHECK_LAUNCH(stream);
}

/// out[b] = keys of the sorted run before splitter b, for every splitter.
template <class Key>
void count_before_splitters(const Key* sorted, std::int64_t num_items, const splitter* splitters, int num_splitters,
                            int rank, bool descending, std::int64_t* out, cudaStream_t stream) {
  const auto blocks = static_cast<unsigned>((num_splitters + 127) / 128);
  bounds_kernel<<<blocks, 128, 0, stream>>>(sorted, num_items, splitters, num_splitters, rank, descending, out);
  BKT_CHECK_LAUNCH(stream);
}

/// data[i] += offset (positions made global).
template <class Word>
void add_offset(Word* data, std::int64_t count, std::int64_t offset, cudaStream_t stream) {
  if (count == 0 || offset == 0) return;
  const auto blocks = static_cast<unsigned>(std::min<std::int64_t>((count + 255) / 256, 4096));
  add_offset_kernel<<<blocks, 256, 0, stream>>>(data, count, offset);
  BKT_CHECK_LAUNCH(stream);
}

}  // namespace bkt::dist::detail
