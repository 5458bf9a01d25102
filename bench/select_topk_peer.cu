// select_bench's top-k peers from the newer CCCL (select_topk_peer.hpp). Compiled with
// BKT_HAVE_CUB_TOPK only when BKT_BENCH_CCCL_PEER_INCLUDE puts those headers first on this file's
// include path (bench/CMakeLists.txt); otherwise every call list is empty.
//
// cub::DeviceBatchedTopK (CCCL 3.5, cub/device/device_batched_topk.cuh): one thread block a
// segment (agent_batched_topk_worker_per_segment); the dispatch picks, at compile time, the
// smallest of its tiles (256 x 64, 256 x 32, 256 x 16, 256 x 8, 256 x 4, 128 x 2 items) that covers
// the segment size's static upper bound and whose block storage (block_topk_air: the tile's keys or
// values for the exchange) fits 48 KB; nothing covers more, and a larger bound fails to compile.
// For f32 keys with u32 values the 256 x 64 tile needs 64 KB, so rows of up to 8192 are taken.
// Its block top-k is radix selection by 8-bit digits over the keys in registers, then a scatter
// by shared atomics, so among keys equal to the k-th it keeps an arbitrary subset, and it orders
// -0.0 with +0.0 and NaN by its bits; select_bench's inputs are finite and distinct enough that
// the check (the selected keys as a multiset) holds.
#include "select_topk_peer.hpp"

#include <algorithm>

#if defined(BKT_HAVE_CUB_TOPK)
#include <cub/device/device_batched_topk.cuh>
#include <cub/device/device_topk.cuh>
#include <cuda/argument>
#include <cuda/iterator>
#include <cuda/stream_ref>
#include <cuda/version>
static_assert(CUB_VERSION >= 300500,
              "BKT_HAVE_CUB_TOPK: a CCCL with DeviceTopK and DeviceBatchedTopK (>= 3.5) must come first on the path");
#endif

namespace bkt::bench::topk_peer {

#if defined(BKT_HAVE_CUB_TOPK)
namespace {

using index_t = std::uint32_t;

/// What DeviceTopK and DeviceBatchedTopK implement so far, which they make the caller ask for.
auto unsorted_env(cudaStream_t s) {
  return cuda::std::execution::env{
      cuda::stream_ref{s}, cuda::execution::require(cuda::execution::determinism::not_guaranteed,
                                                    cuda::execution::tie_break::unspecified,
                                                    cuda::execution::output_ordering::unsorted)};
}

// DeviceBatchedTopK's iterators of per-segment iterators: row r's keys, its outputs, and the
// column numbers as its values.
struct row_keys {
  const float* data;
  std::int64_t cols;
  __host__ __device__ const float* operator()(std::int64_t r) const { return data + r * cols; }
};
template <class T>
struct row_outputs {
  T* data;
  std::int64_t k;
  __host__ __device__ T* operator()(std::int64_t r) const { return data + r * k; }
};
struct column_numbers {
  __host__ __device__ cuda::counting_iterator<index_t> operator()(std::int64_t) const {
    return cuda::counting_iterator<index_t>{0};
  }
};

/// One DeviceBatchedTopK::MaxPairs call; `size` is the segment size's annotation.
template <class Size, class Count>
cudaError_t batched_call(void* temp, std::size_t& bytes, const float* data, Count rows, Count cols, Count k,
                         float* keys_out, index_t* indices_out, Size size, cudaStream_t s) {
  const cuda::counting_iterator<std::int64_t> row{0};
  return cub::DeviceBatchedTopK::MaxPairs(
      temp, bytes, cuda::transform_iterator(row, row_keys{data, cols}),
      cuda::transform_iterator(row, row_outputs<float>{keys_out, k}), cuda::transform_iterator(row, column_numbers{}),
      cuda::transform_iterator(row, row_outputs<index_t>{indices_out, k}), size, k, rows, unsorted_env(s));
}

/// The calls for rows of at most MaxRow: segment size, k and rows as int and as int64_t.
template <std::int64_t MaxRow>
std::vector<peer_call> batched_calls(cub_storage& storage, const float* data, std::int64_t rows, std::int64_t cols,
                                     std::int64_t k, float* keys_out, index_t* indices_out, cudaStream_t stream) {
  // int counts when the row count, the row length and k fit one.
  return cub_count_calls(
      storage, "cub::DeviceBatchedTopK", std::max(rows, cols),
      [=](void* t, std::size_t& b, cudaStream_t s, auto count) {
        using count_t = decltype(count);
        const auto size = cuda::args::immediate{static_cast<count_t>(cols),
                                                cuda::args::bounds<count_t{1}, static_cast<count_t>(MaxRow)>()};
        return batched_call(t, b, data, static_cast<count_t>(rows), static_cast<count_t>(cols),
                            static_cast<count_t>(k), keys_out, indices_out, size, s);
      },
      stream);
}

}  // namespace

std::string cccl_version() {
  return std::to_string(CCCL_MAJOR_VERSION) + "." + std::to_string(CCCL_MINOR_VERSION) + "." +
         std::to_string(CCCL_PATCH_VERSION);
}

std::vector<peer_call> max_pairs(cub_storage& storage, const float* data, std::int64_t n, std::int64_t k,
                                 float* keys_out, index_t* indices_out, cudaStream_t stream) {
  return cub_count_calls(
      storage, "cub::DeviceTopK", n,
      [=](void* t, std::size_t& b, cudaStream_t s, auto count) {
        return cub::DeviceTopK::MaxPairs(t, b, data, keys_out, cuda::counting_iterator<index_t>{0}, indices_out, count,
                                         static_cast<decltype(count)>(k), unsorted_env(s));
      },
      stream);
}

std::int64_t batched_max_row() { return 8192; }

std::vector<peer_call> batched_max_pairs(cub_storage& storage, const float* data, std::int64_t rows, std::int64_t cols,
                                         std::int64_t k, float* keys_out, index_t* indices_out, cudaStream_t stream) {
  if (cols > batched_max_row()) return {};
  if (cols > 4096) return batched_calls<8192>(storage, data, rows, cols, k, keys_out, indices_out, stream);
  auto calls = batched_calls<4096>(storage, data, rows, cols, k, keys_out, indices_out, stream);
  // A row length known at compile time lets the block skip the padding of a partial tile.
  if (cols == 4096)
    calls.push_back({"cub::DeviceBatchedTopK(const 4096)",
                     storage.prepare(
                         [=](void* t, std::size_t& b, cudaStream_t s) {
                           return batched_call(t, b, data, static_cast<int>(rows), 4096, static_cast<int>(k), keys_out,
                                               indices_out, cuda::args::constant<4096>{}, s);
                         },
                         stream)});
  return calls;
}

#else

std::string cccl_version() { return ""; }
std::vector<peer_call> max_pairs(cub_storage&, const float*, std::int64_t, std::int64_t, float*, std::uint32_t*,
                                 cudaStream_t) {
  return {};
}
std::int64_t batched_max_row() { return 0; }
std::vector<peer_call> batched_max_pairs(cub_storage&, const float*, std::int64_t, std::int64_t, std::int64_t, float*,
                                         std::uint32_t*, cudaStream_t) {
  return {};
}

#endif

}  // namespace bkt::bench::topk_peer
