// Stable multisplit: reorder keys (or key-value pairs) so that bucket 0's elements come first,
// then bucket 1's, ..., each bucket in input order, and return the num_buckets + 1 bucket offsets
// (offsets[b] is where bucket b starts; offsets[num_buckets] = n).
//
// Device API: data in device memory, asynchronous on `stream`. This header is plain C++ and covers
// the shipped bucket functors (bkt/buckets.hpp) for the key types below; bkt/multisplit.cuh adds
// any bucket functor (a struct or an extended __device__ lambda) for code compiled with nvcc.
// Host API (namespace bkt::host): host memory, GPU when usable, else the CPU reference.
//
// Key types: int8..int64, uint8..uint64, float, double. Values: any 4- or 8-byte trivially copyable
// type. Index mode writes each element's original position (uint32 or int64) instead of reading
// values. num_buckets from 1 to 256 takes one pass over the data after a counting pass; up to 65536
// takes a pass that stores each element's 16-bit bucket id, a count of the ids, two stable 256-way
// splits of (id, position) pairs (low byte, then high byte) and a gather of keys and values by
// position; the workspace then holds about 12 bytes per element. Outputs must not overlap inputs.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <span>
#include <type_traits>

#include "bkt/backend.hpp"
#include "bkt/buckets.hpp"
#include "bkt/multisplit_types.hpp"
#include "bkt/workspace.hpp"

namespace bkt {

/// Bytes of workspace one multisplit call needs (value_bytes 0 for keys alone; the index width in
/// index mode).
std::size_t multisplit_workspace_bytes(std::int64_t num_items, int num_buckets, std::size_t key_bytes,
                                       std::size_t value_bytes = 0);

/// keys_out = keys_in split stably into num_buckets buckets by `bucket_of`; bucket_offsets (at least
/// num_buckets + 1 elements, device memory) receives the bucket starts and n.
template <class Key, class BucketFn>
void multisplit(std::span<const std::type_identity_t<Key>> keys_in, std::span<Key> keys_out,
                std::span<std::int64_t> bucket_offsets, int num_buckets, BucketFn bucket_of, workspace& ws,
                cudaStream_t stream);

namespace detail {
template <class Key, class Word, class BucketFn>
void multisplit_pairs(std::span<const Key>, std::span<const Word>, std::span<Key>, std::span<Word>,
                      std::span<std::int64_t>, int, BucketFn, workspace&, cudaStream_t);
template <std::size_t Bytes>
using multisplit_value_word = std::conditional_t<Bytes == 4, std::uint32_t, std::uint64_t>;
}  // namespace detail

/// As above, moving values_in[i] with keys_in[i].
template <class Key, class Value, class BucketFn>
void multisplit(std::span<const std::type_identity_t<Key>> keys_in, std::span<const std::type_identity_t<Value>> values_in,
                std::span<Key> keys_out, std::span<Value> values_out, std::span<std::int64_t> bucket_offsets,
                int num_buckets, BucketFn bucket_of, workspace& ws, cudaStream_t stream) {
  static_assert(sizeof(Value) == 4 || sizeof(Value) == 8, "values of 4 or 8 bytes");
  static_assert(std::is_trivially_copyable_v<Value>, "values must be trivially copyable");
  using word = detail::multisplit_value_word<sizeof(Value)>;
  detail::multisplit_pairs<Key, word, BucketFn>(
      keys_in, {reinterpret_cast<const word*>(values_in.data()), values_in.size()}, keys_out,
      {reinterpret_cast<word*>(values_out.data()), values_out.size()}, bucket_offsets, num_buckets, bucket_of, ws,
      stream);
}

/// Index mode: indices_out[j] = the input position of the j-th element of the split. keys_out may
/// be empty (only the permutation is wanted). Index is std::uint32_t (n < 2^32) or std::int64_t.
template <class Key, class Index, class BucketFn>
void multisplit_indices(std::span<const std::type_identity_t<Key>> keys_in, std::span<Key> keys_out,
                        std::span<Index> indices_out, std::span<std::int64_t> bucket_offsets, int num_buckets,
                        BucketFn bucket_of, workspace& ws, cudaStream_t stream);

namespace host {

/// Host-memory multisplit (offsets: num_buckets + 1 host elements). The shipped bucket functors
/// hold host pointers here (splitter_buckets); the GPU path copies what they point to.
template <class Key, class BucketFn>
void multisplit(std::span<const std::type_identity_t<Key>> keys_in, std::span<Key> keys_out,
                std::span<std::int64_t> bucket_offsets, int num_buckets, BucketFn bucket_of,
                backend where = backend::automatic);

namespace detail {
template <class Key, class Word, class BucketFn>
void multisplit_pairs(std::span<const Key>, std::span<const Word>, std::span<Key>, std::span<Word>,
                      std::span<std::int64_t>, int, BucketFn, backend);
}  // namespace detail

/// Host-memory multisplit of key-value pairs.
template <class Key, class Value, class BucketFn>
void multisplit(std::span<const std::type_identity_t<Key>> keys_in, std::span<const std::type_identity_t<Value>> values_in,
                std::span<Key> keys_out, std::span<Value> values_out, std::span<std::int64_t> bucket_offsets,
                int num_buckets, BucketFn bucket_of, backend where = backend::automatic) {
  static_assert(sizeof(Value) == 4 || sizeof(Value) == 8, "values of 4 or 8 bytes");
  using word = bkt::detail::multisplit_value_word<sizeof(Value)>;
  detail::multisplit_pairs<Key, word, BucketFn>(
      keys_in, {reinterpret_cast<const word*>(values_in.data()), values_in.size()}, keys_out,
      {reinterpret_cast<word*>(values_out.data()), values_out.size()}, bucket_offsets, num_buckets, bucket_of, where);
}

}  // namespace host
}  // namespace bkt
