// What the compaction tile kernel is given: where it reads and writes, how it chooses, and what
// it writes where; and the shared memory a block of it needs.
#pragma once

#include <cstddef>
#include <cstdint>

#include "bkt/detail/compact/tile_shape.hpp"

namespace bkt::detail::compact {

enum class output_mode {
  select,              // chosen elements to `out`; the rest dropped
  partition_split,     // chosen to `out`, the rest to `rejected`, both in input order
  partition_reversed,  // chosen to the front of `out`, the rest to its back in reverse order
};

template <class Key, class Value>
struct compact_args {
  const Key* keys_in;
  const Value* values_in;  // unused for no_value
  Key* keys_out;
  Value* values_out;
  Key* keys_rejected;      // partition_split only
  Value* values_rejected;
  std::int64_t num_items;
  std::int64_t num_tiles;
  std::int64_t* num_selected;
  std::uint64_t* tile_status;  // zeroed before the launch, one word per tile
  bool vector_keys;            // keys_in is aligned for the tile's vector loads
  bool vector_flags;           // likewise the flag array, when the pick reads one
  bool bulk_loads;             // both are 16-byte aligned: full tiles may come through the ring
};

/// Chooses by a predicate on the key.
template <class Pred>
struct pick_by_predicate {
  static constexpr bool reads_flags = false;
  using flag_type = unsigned char;  // unused
  Pred pred;
  __host__ __device__ const flag_type* flags() const { return nullptr; }
  template <class Key>
  __device__ __forceinline__ bool operator()(const Key& key, flag_type) const {
    return static_cast<bool>(pred(key));
  }
};

/// Chooses by a flag array beside the keys; the flags are loaded with the keys, as vectors.
template <class Flag>
struct pick_by_flag {
  static constexpr bool reads_flags = true;
  using flag_type = Flag;
  const Flag* flag_array;
  __host__ __device__ const Flag* flags() const { return flag_array; }
  template <class Key>
  __device__ __forceinline__ bool operator()(const Key&, const Flag& flag) const {
    return static_cast<bool>(flag);
  }
};

/// Shared memory of one block: the staged output (keys, then values) of `Shape::output_buffers` tiles,
/// since tile j is staged while tiles j - lookback_lag .. j - 1 wait for their prefixes or are written out;
/// then the ring's stages, each a tile's keys and flags.
template <class Shape, class Key, class Value>
__host__ __device__ constexpr std::size_t output_staging_bytes() {
  return Shape::output_buffers * Shape::tile_items * (sizeof(Key) + value_bytes<Value>);
}
template <class Shape, class Key, class Pick>
__host__ __device__ constexpr std::size_t ring_stage_bytes() {
  return Shape::tile_items * (sizeof(Key) + (Pick::reads_flags ? sizeof(typename Pick::flag_type) : 0));
}
template <class Shape, class Key, class Value, class Pick>
__host__ __device__ constexpr std::size_t shared_bytes() {
  return output_staging_bytes<Shape, Key, Value>() + Shape::ring_stages * ring_stage_bytes<Shape, Key, Pick>();
}

}  // namespace bkt::detail::compact
