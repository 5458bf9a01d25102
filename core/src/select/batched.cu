// top_k_batched (bkt/select.hpp). Rows of up to 4096 elements, and longer rows with k <= 2048: the
// register-tile kernels of bkt/detail/select/batched_kernels.cuh, which write the outputs
// themselves. Longer rows with a larger k: one block a row (row_top_k_kernel.cuh) leaves positions
// in the workspace, a sorted output of more than one block's worth (k > row_shape::chunk) sorts each
// row's selection with the radix sort, and a gather writes the outputs.
#include <cstdint>
#include <limits>

#include "bkt/device/occupancy.cuh"
#include "bkt/types.hpp"
#include "bkt/detail/select/batched_kernels.cuh"
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

/// One block a row (the fallback: rows longer than row_tiles::tile with k > row_tiles::tile / 2):
/// row r's positions to positions[r * k ...], sorted when `sorted` (k <= row_shape::chunk).
template <class T>
void top_k_rows(const T* data, std::int64_t rows, std::int64_t cols, std::int64_t k, bool largest, bool sorted,
                std::uint32_t* positions, cudaStream_t stream) {
  const std::size_t shared_bytes = sizeof(row_storage<radix_word<T>>);
  auto kernel = row_top_k_kernel<T>;
  allow_shared_bytes(kernel, shared_bytes);
  // Grids are limited to 2^31 - 1 blocks in x: launch rows in slices.
  constexpr std::int64_t max_rows = std::numeric_limits<int>::max();
  for (std::int64_t first = 0; first < rows; first += max_rows) {
    const auto count = static_cast<unsigned>(std::min(rows - first, max_rows));
    kernel<<<count, row_shape::block, shared_bytes, stream>>>(data + first * cols, cols, k, largest, sorted,
                                                              positions + first * k);
    BKT_CHECK_LAUNCH(stream);
  }
}

/// `kernel` over every row on a persistent grid: as many blocks as the device holds at once (at
/// most one a row).
template <class Kernel, class... Args>
void launch_persistent(Kernel kernel, std::size_t shared_bytes, std::int64_t rows, cudaStream_t stream, Args... args) {
  allow_shared_bytes(kernel, shared_bytes);
  const auto resident = resident_blocks(kernel, row_tiles::threads, shared_bytes);
  const auto blocks = static_cast<unsigned>(std::min(rows, resident));
  kernel<<<blocks, row_tiles::threads, shared_bytes, stream>>>(args...);
  BKT_CHECK_LAUNCH(stream);
}

/// The register-tile kernels (rows of at most row_tiles::tile, or k <= row_tiles::tile / 2),
/// straight into the outputs.
template <class T, class Index, bool Sorted>
void top_k_tiles(const T* data, std::int64_t rows, std::int64_t cols, std::int64_t k, bool largest, T* values,
                 Index* indices, cudaStream_t stream) {
  using W = radix_word<T>;
  constexpr bool wide = sizeof(Index) == 8;
  void* index_out = static_cast<void*>(indices);
  if (cols <= row_tiles::tile) {
    auto kernel = cols == row_tiles::tile ? row_tiles::short_rows_kernel<T, Sorted, true>
                                          : row_tiles::short_rows_kernel<T, Sorted, false>;
    launch_persistent(kernel, sizeof(row_tiles::short_row_storage<W, Sorted>), rows, stream, data, rows,
                      static_cast<int>(cols), static_cast<int>(k), largest, values, index_out, wide);
  } else {
    launch_persistent(row_tiles::long_rows_kernel<T, Sorted>, sizeof(row_tiles::long_row_storage<W, Sorted>), rows,
                      stream, data, rows, cols, static_cast<int>(k), largest, values, index_out, wide);
  }
}

template <class T, class Index>
void top_k_batched(std::span<const T> data, std::int64_t rows, std::int64_t k, std::span<T> values_out,
                   std::span<Index> indices_out, workspace& ws, cudaStream_t stream, const top_k_options& options) {
  const auto cols = static_cast<std::int64_t>(check_top_k_batched<T, Index>(data, rows, k, values_out, indices_out));
  if (cols > (std::int64_t{1} << 32)) throw_argument("top_k_batched: rows longer than 2^32 elements");
  const auto outputs = static_cast<std::size_t>(rows * k);
  if (k == 0 || rows == 0 || (values_out.empty() && indices_out.empty())) return;
  T* values = values_out.empty() ? nullptr : values_out.data();
  Index* indices = indices_out.empty() ? nullptr : indices_out.data();
  if (cols <= row_tiles::tile || k <= row_tiles::tile / 2) {
    if (options.sorted)
      top_k_tiles<T, Index, true>(data.data(), rows, cols, k, options.largest, values, indices, stream);
    else
      top_k_tiles<T, Index, false>(data.data(), rows, cols, k, options.largest, values, indices, stream);
    return;
  }

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
  gather_rows_kernel<<<blocks, 256, 0, stream>>>(data.data(), cols, k, positions, rows * k, values, indices);
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
