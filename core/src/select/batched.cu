// top_k_batched (bkt/select.hpp): one block per row for rows of up to 2^32 elements; a sorted
// output of more than one block's worth (k > row_shape::chunk) sorts each row's selection with the
// radix sort afterwards.
#include <cstdint>
#include <limits>

#include "bkt/types.hpp"
#include "bkt/detail/select/row_top_k_kernel.cuh"
#include "single.cuh"

namespace bkt {
namespace detail::select {

/// Output j belongs to row j / k: its value and its position within the row.
template <class T, class Index>
__global__ void gather_rows_kernel(const T* data, std::int64_t cols, std::int64_t k, const std::uint32_t* positions,
                                   std::int64_t count, T* values_out, Index* indices_out) {
  for (std::int64_t j = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; j < count;
       j += std::int64_t{gridDim.x} * blockDim.x) {
    const std::uint32_t p = positions[j];
    if (values_out) values_out[j] = data[j / k * cols + p];
    if (indices_out) indices_out[j] = static_cast<Index>(p);
  }
}

template <class T>
void top_k_rows(const T* data, std::int64_t rows, std::int64_t cols, std::int64_t k, bool largest, bool sorted,
                std::uint32_t* positions, cudaStream_t stream) {
  const std::size_t shared_bytes = sizeof(row_storage<radix_word<T>>);
  auto kernel = row_top_k_kernel<T>;
  allow_shared_bytes(kernel, shared_bytes);
  const bool short_rows = !sorted && cols <= row_shape::chunk;
  // Grids are limited to 2^31 - 1 blocks in x: launch rows in slices.
  constexpr std::int64_t max_rows = std::numeric_limits<int>::max();
  for (std::int64_t first = 0; first < rows; first += max_rows) {
    const auto count = static_cast<unsigned>(std::min(rows - first, max_rows));
    if (short_rows) {
      short_row_top_k_kernel<T><<<count, row_shape::block, 0, stream>>>(data + first * cols, cols, k, largest,
                                                                        positions + first * k);
    } else {
      kernel<<<count, row_shape::block, shared_bytes, stream>>>(data + first * cols, cols, k, largest, sorted,
                                                                positions + first * k);
    }
    BKT_CHECK_LAUNCH(stream);
  }
}

template <class T, class Index>
void top_k_batched(std::span<const T> data, std::int64_t rows, std::int64_t k, std::span<T> values_out,
                   std::span<Index> indices_out, workspace& ws, cudaStream_t stream, const top_k_options& options) {
  const auto cols = static_cast<std::int64_t>(check_top_k_batched<T, Index>(data, rows, k, values_out, indices_out));
  if (cols > (std::int64_t{1} << 32)) throw_argument("top_k_batched: rows longer than 2^32 elements");
  const auto outputs = static_cast<std::size_t>(rows * k);
  if (k == 0 || rows == 0 || (values_out.empty() && indices_out.empty())) return;

  using W = radix_word<T>;
  const bool block_sorts = !options.sorted || k <= row_shape::chunk;
  workspace_layout layout;
  const auto positions_at = layout.add(sizeof(std::uint32_t) * outputs);
  std::size_t sort_at[4] = {}, sort_bytes = 0;
  if (!block_sorts) {
    sort_at[0] = layout.add(sizeof(std::uint32_t) * k);
    sort_at[1] = layout.add(sizeof(W) * k);
    sort_at[2] = layout.add(sizeof(W) * k);
    sort_bytes = sort_positions_bytes<T, std::uint32_t>(k);
    sort_at[3] = layout.add(sort_bytes);
  }
  void* base = ws.reserve(layout.total_bytes(), stream);
  auto* positions = slice_at<std::uint32_t>(base, positions_at);
  top_k_rows<T>(data.data(), rows, cols, k, options.largest, options.sorted && block_sorts, positions, stream);

  // Selections too big for one block's sort: the radix sort, row by row.
  for (std::int64_t r = 0; !block_sorts && r < rows; ++r) {
    std::uint32_t* row_positions = positions + r * k;
    W* words[2] = {slice_at<W>(base, sort_at[1]), slice_at<W>(base, sort_at[2])};
    auto* sorted = sort_positions<T, std::uint32_t>(data.data() + r * cols, options.largest, row_positions,
                                                    slice_at<std::uint32_t>(base, sort_at[0]), words, k,
                                                    slice_at<std::byte>(base, sort_at[3]), sort_bytes, stream);
    if (sorted != row_positions)
      BKT_CUDA_CHECK(cudaMemcpyAsync(row_positions, sorted, sizeof(std::uint32_t) * k, cudaMemcpyDeviceToDevice,
                                     stream));
  }
  const auto blocks = static_cast<unsigned>(std::min<std::int64_t>((rows * k + 255) / 256, 8192));
  gather_rows_kernel<<<blocks, 256, 0, stream>>>(data.data(), cols, k, positions, rows * k,
                                                 values_out.empty() ? nullptr : values_out.data(),
                                                 indices_out.empty() ? nullptr : indices_out.data());
  BKT_CHECK_LAUNCH(stream);
}

}  // namespace detail::select

template <class T, class Index>
void top_k_batched(std::span<const std::type_identity_t<T>> data, std::int64_t rows, std::int64_t k,
                   std::span<T> values_out, std::span<Index> indices_out, workspace& ws, cudaStream_t stream,
                   const top_k_options& options) {
  detail::select::top_k_batched<T, Index>(data, rows, k, values_out, indices_out, ws, stream, options);
}

#define BKT_INSTANTIATE(T)                                                                                          \
  template void top_k_batched<T, std::uint32_t>(std::span<const T>, std::int64_t, std::int64_t, std::span<T>,       \
                                                std::span<std::uint32_t>, workspace&, cudaStream_t,                 \
                                                const top_k_options&);                                              \
  template void top_k_batched<T, std::int64_t>(std::span<const T>, std::int64_t, std::int64_t, std::span<T>,        \
                                               std::span<std::int64_t>, workspace&, cudaStream_t,                   \
                                               const top_k_options&);
BKT_FOR_EACH_SELECT_TYPE(BKT_INSTANTIATE)
#undef BKT_INSTANTIATE

}  // namespace bkt
