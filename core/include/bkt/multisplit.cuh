// Multisplit templates for any bucket functor (a struct with a __device__ operator() returning an
// int, or an extended __device__ lambda). Include from CUDA sources; plain C++ callers use
// bkt/multisplit.hpp, whose contracts these are.
#pragma once

#include <cstdint>
#include <span>
#include <type_traits>

#include "bkt/detail/arguments.hpp"
#include "bkt/detail/multisplit/arguments.hpp"
#include "bkt/detail/multisplit/dispatch.cuh"
#include "bkt/multisplit.hpp"

namespace bkt {

template <class Key, class BucketFn>
void multisplit(std::span<const std::type_identity_t<Key>> keys_in, std::span<Key> keys_out,
                std::span<std::int64_t> bucket_offsets, int num_buckets, BucketFn bucket_of, workspace& ws,
                cudaStream_t stream) {
  detail::multisplit::check_common<Key>("multisplit", keys_in, bucket_offsets, num_buckets, bucket_of);
  detail::expect_capacity("multisplit", "key output", keys_out, keys_in.size());
  detail::multisplit::split_pointers<Key, detail::multisplit::no_value> io{.keys_in = keys_in.data(),
                                                                           .keys_out = keys_out.data()};
  detail::multisplit::run(io, static_cast<std::int64_t>(keys_in.size()), bucket_offsets.data(), num_buckets,
                          bucket_of, ws, stream);
}

namespace detail {
template <class Key, class Word, class BucketFn>
void multisplit_pairs(std::span<const Key> keys_in, std::span<const Word> values_in, std::span<Key> keys_out,
                      std::span<Word> values_out, std::span<std::int64_t> bucket_offsets, int num_buckets,
                      BucketFn bucket_of, workspace& ws, cudaStream_t stream) {
  multisplit::check_common<Key>("multisplit", keys_in, bucket_offsets, num_buckets, bucket_of);
  expect_data("multisplit", "values", values_in);
  expect_same_size("multisplit", "keys", keys_in.size(), "values", values_in.size());
  expect_capacity("multisplit", "key output", keys_out, keys_in.size());
  expect_capacity("multisplit", "value output", values_out, keys_in.size());
  multisplit::split_pointers<Key, Word> io{.keys_in = keys_in.data(), .values_in = values_in.data(),
                                           .keys_out = keys_out.data(), .values_out = values_out.data()};
  multisplit::run(io, static_cast<std::int64_t>(keys_in.size()), bucket_offsets.data(), num_buckets, bucket_of, ws,
                  stream);
}
}  // namespace detail

template <class Key, class Index, class BucketFn>
void multisplit_indices(std::span<const std::type_identity_t<Key>> keys_in, std::span<Key> keys_out,
                        std::span<Index> indices_out, std::span<std::int64_t> bucket_offsets, int num_buckets,
                        BucketFn bucket_of, workspace& ws, cudaStream_t stream) {
  static_assert(std::is_same_v<Index, std::uint32_t> || std::is_same_v<Index, std::int64_t>,
                "indices are std::uint32_t or std::int64_t");
  detail::multisplit::check_common<Key>("multisplit_indices", keys_in, bucket_offsets, num_buckets, bucket_of);
  if (!keys_out.empty()) detail::expect_capacity("multisplit_indices", "key output", keys_out, keys_in.size());
  detail::expect_capacity("multisplit_indices", "index output", indices_out, keys_in.size());
  if constexpr (std::is_same_v<Index, std::uint32_t>)
    BKT_EXPECTS(keys_in.size() <= (std::size_t{1} << 32), "multisplit_indices: uint32 indices need n <= 2^32");
  detail::multisplit::split_pointers<Key, detail::multisplit::index_value<Index>> io{
      .keys_in = keys_in.data(), .keys_out = keys_out.empty() ? nullptr : keys_out.data(),
      .values_out = indices_out.data()};
  detail::multisplit::run(io, static_cast<std::int64_t>(keys_in.size()), bucket_offsets.data(), num_buckets,
                          bucket_of, ws, stream);
}

}  // namespace bkt
