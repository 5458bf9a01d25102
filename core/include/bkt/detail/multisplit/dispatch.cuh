// Device-level multisplit: sizes the workspace, counts, scans the counts into bucket offsets,
// scatters. Up to 256 buckets in one scatter pass; more through bucket ids and two 256-way passes.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <type_traits>

#include "bkt/buckets.hpp"
#include "bkt/device/occupancy.cuh"
#include "bkt/detail/multisplit/count_kernel.cuh"
#include "bkt/detail/multisplit/scatter_kernel.cuh"
#include "bkt/detail/multisplit/tile_shape.hpp"
#include "bkt/detail/warp/warp_match.cuh"
#include "bkt/error.hpp"
#include "bkt/workspace.hpp"

namespace bkt::detail::multisplit {

/// The scatter pass alone, for num_buckets <= 256, given the bucket offsets and the lone bucket
/// (launch_bucket_offsets). `status` holds single_pass_workspace(...) look-back words and
/// `tile_counter` one word, both zeroed.
template <class Key, class Value, class Fn>
void launch_scatter(const split_pointers<Key, Value>& io, std::int64_t num_items, const std::int64_t* offsets,
                    const int* lone_bucket, int num_buckets, Fn fn, void* status, unsigned* tile_counter,
                    cudaStream_t stream) {
  if (num_items == 0) return;
  using shape = scatter_shape<sizeof(Key), value_bytes<Value>>;
  const std::int64_t tiles = (num_items + shape::tile_items - 1) / shape::tile_items;
  const std::size_t table_bytes = shared_table_bytes(fn);
  const int rank_bits = rank_bits_class(num_buckets);
  const std::size_t shared_bytes = table_bytes + staging_bytes<shape, Key, Value, Fn>(rank_bits);
  const scatter_args<Key, Value> args{io,
                                      num_items,
                                      tiles,
                                      num_buckets,
                                      offsets,
                                      lone_bucket,
                                      status,
                                      wide_status(num_items),
                                      tile_counter,
                                      static_cast<unsigned>(table_bytes)};
  auto kernel = rank_bits == 1   ? scatter_kernel<shape, 1, Key, Value, Fn>
                : rank_bits == 5 ? scatter_kernel<shape, 5, Key, Value, Fn>
                                 : scatter_kernel<shape, 8, Key, Value, Fn>;
  allow_shared_bytes(kernel, shared_bytes);
  kernel<<<static_cast<unsigned>(tiles), shape::block_threads, shared_bytes, stream>>>(args, fn);
  BKT_CHECK_LAUNCH(stream);
}

/// One pass for num_buckets <= 256, in a workspace block of single_pass_workspace(...).total bytes
/// at `scratch` (cleared here).
template <class Key, class Value, class Fn>
void run_single_pass(const split_pointers<Key, Value>& io, std::int64_t num_items, std::int64_t* offsets,
                     int num_buckets, Fn fn, void* scratch, cudaStream_t stream) {
  const single_pass_layout layout = single_pass_workspace(num_items, num_buckets, sizeof(Key), value_bytes<Value>);
  BKT_CUDA_CHECK(cudaMemsetAsync(scratch, 0, layout.total, stream));
  auto* totals = slice_at<unsigned long long>(scratch, layout.counts);
  launch_count<Key, no_weight>(io.keys_in, nullptr, num_items, num_buckets, fn, totals, totals + num_buckets - 1,
                               stream);
  auto* lone_bucket = slice_at<int>(scratch, layout.lone_bucket);
  launch_bucket_offsets(totals, num_buckets, offsets, lone_bucket, stream);
  launch_scatter(io, num_items, offsets, lone_bucket, num_buckets, fn, slice_at<void>(scratch, layout.status),
                 slice_at<unsigned>(scratch, layout.tile_counter), stream);
}

// ---- more than 256 buckets ----
//
// Each element's bucket id (16 bits) is computed once; (id, position) pairs are split by the id's
// low byte, then stably by its high byte (LSD order, so the result is stably sorted by id); keys
// and values are then gathered by position. The offsets come from a count of the ids.

/// Bucket ids as keys: the id's own value.
struct identity_bucket {
  __device__ int operator()(std::uint16_t id) const { return id; }
};

template <class Key, class Fn>
__global__ void bucket_ids_kernel(const Key* keys, std::int64_t num_items, int num_buckets, Fn fn_global,
                                  std::uint16_t* ids) {
  extern __shared__ __align__(16) unsigned char shared[];
  const auto fn = shared_table<Fn>::bind(fn_global, shared);
  __syncthreads();
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < num_items; i += stride)
    ids[i] = static_cast<std::uint16_t>(clamped_bucket(fn, keys[i], num_buckets));
}

template <class Key, class Value, class Index>
__global__ void gather_kernel(split_pointers<Key, Value> io, std::int64_t num_items, const Index* positions) {
  using traits = value_traits<Value>;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t j = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; j < num_items; j += stride) {
    const std::int64_t from = static_cast<std::int64_t>(positions[j]);
    if (io.keys_out != nullptr) io.keys_out[j] = io.keys_in[from];
    if constexpr (traits::generated) io.values_out[j] = static_cast<typename traits::stored>(from);
    else if constexpr (traits::present) io.values_out[j] = io.values_in[from];
  }
}

inline unsigned elementwise_blocks(std::int64_t num_items) {
  const std::int64_t wanted = (num_items + 255) / 256;
  return static_cast<unsigned>(wanted < 8192 ? (wanted > 0 ? wanted : 1) : 8192);
}

template <class Index, class Key, class Value, class Fn>
void run_multi_pass(const split_pointers<Key, Value>& io, std::int64_t num_items, std::int64_t* offsets,
                    int num_buckets, Fn fn, void* scratch, cudaStream_t stream) {
  const multi_pass_layout layout = multi_pass_workspace(num_items, num_buckets, sizeof(Index));
  auto* ids = slice_at<std::uint16_t>(scratch, layout.ids);
  auto* ids_split = slice_at<std::uint16_t>(scratch, layout.ids_split);
  auto* positions = slice_at<Index>(scratch, layout.positions);
  auto* positions_split = slice_at<Index>(scratch, layout.positions_split);
  auto* totals = slice_at<unsigned long long>(scratch, layout.totals);
  auto* inner_offsets = slice_at<std::int64_t>(scratch, layout.inner_offsets);
  void* inner = slice_at<void>(scratch, layout.inner);

  const std::size_t table_bytes = shared_table_bytes(fn);
  if (num_items > 0) {
    auto kernel = bucket_ids_kernel<Key, Fn>;
    allow_shared_bytes(kernel, table_bytes);
    kernel<<<elementwise_blocks(num_items), 256, table_bytes, stream>>>(io.keys_in, num_items, num_buckets, fn, ids);
    BKT_CHECK_LAUNCH(stream);
  }
  BKT_CUDA_CHECK(cudaMemsetAsync(totals, 0, static_cast<std::size_t>(num_buckets) * sizeof(*totals), stream));
  launch_count<std::uint16_t, no_weight>(ids, nullptr, num_items, num_buckets, identity_bucket{}, totals,
                                         totals + num_buckets - 1, stream);
  launch_bucket_offsets(totals, num_buckets, offsets, nullptr, stream);
  if (num_items == 0) return;

  const int high_buckets = (num_buckets + multisplit_inner_buckets - 1) / multisplit_inner_buckets;
  run_single_pass(split_pointers<std::uint16_t, index_value<Index>>{ids, nullptr, ids_split, positions}, num_items,
                  inner_offsets, multisplit_inner_buckets, bit_range_buckets<std::uint16_t>{0, 8}, inner, stream);
  run_single_pass(split_pointers<std::uint16_t, Index>{ids_split, positions, ids, positions_split}, num_items,
                  inner_offsets, high_buckets, bit_range_buckets<std::uint16_t>{8, 8}, inner, stream);
  gather_kernel<<<elementwise_blocks(num_items), 256, 0, stream>>>(io, num_items, positions_split);
  BKT_CHECK_LAUNCH(stream);
}

template <class Key, class Value, class Fn>
void run(const split_pointers<Key, Value>& io, std::int64_t num_items, std::int64_t* offsets, int num_buckets, Fn fn,
         workspace& ws, cudaStream_t stream) {
  static_assert(std::is_trivially_copyable_v<Fn>, "bucket functors must be trivially copyable");
  void* scratch = ws.reserve(workspace_bytes(num_items, num_buckets, sizeof(Key), value_bytes<Value>), stream);
  if (num_buckets <= multisplit_inner_buckets) {
    run_single_pass(io, num_items, offsets, num_buckets, fn, scratch, stream);
  } else if (narrow_positions(num_items)) {
    run_multi_pass<std::uint32_t>(io, num_items, offsets, num_buckets, fn, scratch, stream);
  } else {
    run_multi_pass<std::int64_t>(io, num_items, offsets, num_buckets, fn, scratch, stream);
  }
}

}  // namespace bkt::detail::multisplit
