// Tile geometry and workspace sizing for multisplit, shared by the kernels and the host code.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "bkt/detail/workspace_layout.hpp"

namespace bkt::detail::multisplit {

/// Marks key-only multisplit.
struct no_value {};

/// Marks index mode: the "value" of element i is i itself, generated instead of read.
template <class Index>
struct index_value {
  Index index;
};

template <class Value>
struct value_traits {
  static constexpr bool present = true;
  static constexpr bool generated = false;
  using stored = Value;  // what the output array holds
};
template <>
struct value_traits<no_value> {
  static constexpr bool present = false;
  static constexpr bool generated = false;
  using stored = char;
};
template <class Index>
struct value_traits<index_value<Index>> {
  static constexpr bool present = true;
  static constexpr bool generated = true;
  using stored = Index;
};

template <class Value>
inline constexpr std::size_t value_bytes = value_traits<Value>::present ? sizeof(typename value_traits<Value>::stored) : 0;

/// Buckets of one scatter pass; more take two passes over 16-bit bucket ids.
inline constexpr int multisplit_inner_buckets = 256;

// Scatter tiles (docs/primitives/multisplit.md says where each was measured). Keys of up to 4
// bytes alone: 384 threads x 20 items, three blocks an SM (56 registers). Everything else: 512
// threads, two blocks an SM (64 registers); pairs of at most 8 bytes together 16 items (12
// measured slower: fewer items spread a tile's fixed costs, the look-back over 256 buckets among
// them, over fewer elements), 8-byte keys 12 (16 spill), wider pairs 12 (16 spill; 8 ran the
// u64/u32 sort 17 % slower); at three blocks of 384 they spill. The macros exist for tuning runs.
#ifndef BKT_MULTISPLIT_KEY_THREADS
#define BKT_MULTISPLIT_KEY_THREADS 384
#endif
#ifndef BKT_MULTISPLIT_ITEMS
#define BKT_MULTISPLIT_ITEMS 20
#endif
#ifndef BKT_MULTISPLIT_KEY_MIN_BLOCKS
#define BKT_MULTISPLIT_KEY_MIN_BLOCKS 3  // resident blocks per SM the register budget must allow
#endif
#ifndef BKT_MULTISPLIT_THREADS
#define BKT_MULTISPLIT_THREADS 512
#endif
#ifndef BKT_MULTISPLIT_PAIR_ITEMS
#define BKT_MULTISPLIT_PAIR_ITEMS 16
#endif
#ifndef BKT_MULTISPLIT_WIDE_KEY_ITEMS
#define BKT_MULTISPLIT_WIDE_KEY_ITEMS 12
#endif
#ifndef BKT_MULTISPLIT_WIDE_ITEMS
#define BKT_MULTISPLIT_WIDE_ITEMS 12
#endif
#ifndef BKT_MULTISPLIT_MIN_BLOCKS
#define BKT_MULTISPLIT_MIN_BLOCKS 2
#endif
#ifndef BKT_MULTISPLIT_LOOKBACK_WINDOW
#define BKT_MULTISPLIT_LOOKBACK_WINDOW 4  // predecessors a look-back round loads at once
#endif

/// Keys of up to 4 bytes without values take the key-only tile.
constexpr bool narrow_keys_only(std::size_t key_bytes, std::size_t value_bytes) {
  return value_bytes == 0 && key_bytes <= 4;
}
constexpr int scatter_block_threads(std::size_t key_bytes, std::size_t value_bytes) {
  return narrow_keys_only(key_bytes, value_bytes) ? BKT_MULTISPLIT_KEY_THREADS : BKT_MULTISPLIT_THREADS;
}
constexpr int scatter_min_blocks(std::size_t key_bytes, std::size_t value_bytes) {
  return narrow_keys_only(key_bytes, value_bytes) ? BKT_MULTISPLIT_KEY_MIN_BLOCKS : BKT_MULTISPLIT_MIN_BLOCKS;
}
constexpr int scatter_items_per_thread(std::size_t key_bytes, std::size_t value_bytes) {
  if (narrow_keys_only(key_bytes, value_bytes)) return BKT_MULTISPLIT_ITEMS;
  if (value_bytes == 0) return BKT_MULTISPLIT_WIDE_KEY_ITEMS;
  return key_bytes + value_bytes <= 8 ? BKT_MULTISPLIT_PAIR_ITEMS : BKT_MULTISPLIT_WIDE_ITEMS;
}
constexpr std::int64_t scatter_tile_items(std::size_t key_bytes, std::size_t value_bytes) {
  return std::int64_t{scatter_block_threads(key_bytes, value_bytes)} *
         scatter_items_per_thread(key_bytes, value_bytes);
}

template <std::size_t KeyBytes, std::size_t ValueBytes>
struct scatter_shape {
  static constexpr int block_threads = scatter_block_threads(KeyBytes, ValueBytes);
  static constexpr int items = scatter_items_per_thread(KeyBytes, ValueBytes);
  static constexpr int warps = block_threads / 32;
  static constexpr int warp_items = items * 32;
  static constexpr int tile_items = warp_items * warps;
  static constexpr int min_blocks = scatter_min_blocks(KeyBytes, ValueBytes);
  static constexpr int max_buckets = 256;  // one pass; ids fit a byte
  static constexpr int lookback_window = BKT_MULTISPLIT_LOOKBACK_WINDOW;
  static_assert(block_threads >= max_buckets, "one thread per bucket in the tile scan and look-back");
  static_assert(warp_items <= (1 << 23), "a warp's ranks and a bucket id share one 32-bit word");
};

/// Look-back status words are 32-bit (2 state bits, 30 value bits) when every count fits, else 64-bit.
constexpr bool wide_status(std::int64_t num_items) { return num_items >= (std::int64_t{1} << 30); }

/// Workspace slices of a single-pass multisplit.
struct single_pass_layout {
  std::size_t counts = 0;       // num_buckets 64-bit counters
  std::size_t lone_bucket = 0;  // the bucket that holds every element, or -1
  std::size_t tile_counter = 0;
  std::size_t status = 0;       // tiles x num_buckets look-back words
  std::size_t total = 0;
};

constexpr single_pass_layout single_pass_workspace(std::int64_t num_items, int num_buckets, std::size_t key_bytes,
                                                   std::size_t value_bytes) {
  // Look-back words for the smaller of this call's tiles and the key-only ones, so that a
  // workspace sized for values also serves the same keys alone.
  const std::int64_t tile_items =
      std::min(scatter_tile_items(key_bytes, value_bytes), scatter_tile_items(key_bytes, 0));
  const std::int64_t tiles = (num_items + tile_items - 1) / tile_items;
  workspace_layout carve;
  single_pass_layout layout;
  layout.counts = carve.add(sizeof(std::uint64_t) * static_cast<std::size_t>(num_buckets));
  layout.lone_bucket = carve.add(sizeof(int));
  layout.tile_counter = carve.add(sizeof(std::uint32_t));
  layout.status = carve.add(static_cast<std::size_t>(tiles) * static_cast<std::size_t>(num_buckets) *
                            (wide_status(num_items) ? sizeof(std::uint64_t) : sizeof(std::uint32_t)));
  layout.total = carve.total_bytes();
  return layout;
}

/// Workspace slices of the multi-pass path.
struct multi_pass_layout {
  std::size_t ids = 0, ids_split = 0, positions = 0, positions_split = 0, totals = 0, inner_offsets = 0, inner = 0;
  std::size_t total = 0;
};

inline multi_pass_layout multi_pass_workspace(std::int64_t num_items, int num_buckets, std::size_t index_bytes) {
  workspace_layout carve;
  multi_pass_layout layout;
  const auto n = static_cast<std::size_t>(num_items);
  layout.ids = carve.add(n * sizeof(std::uint16_t));
  layout.ids_split = carve.add(n * sizeof(std::uint16_t));
  layout.positions = carve.add(n * index_bytes);
  layout.positions_split = carve.add(n * index_bytes);
  layout.totals = carve.add(static_cast<std::size_t>(num_buckets) * sizeof(unsigned long long));
  layout.inner_offsets = carve.add((multisplit_inner_buckets + 1) * sizeof(std::int64_t));
  layout.inner = carve.add(single_pass_workspace(num_items, multisplit_inner_buckets, sizeof(std::uint16_t), index_bytes).total);
  layout.total = carve.total_bytes();
  return layout;
}

/// The multi-pass path's index type: 32-bit while positions fit.
inline bool narrow_positions(std::int64_t num_items) { return num_items <= (std::int64_t{1} << 32); }

inline std::size_t workspace_bytes(std::int64_t num_items, int num_buckets, std::size_t key_bytes,
                                   std::size_t value_bytes) {
  if (num_buckets <= multisplit_inner_buckets) return single_pass_workspace(num_items, num_buckets, key_bytes, value_bytes).total;
  return multi_pass_workspace(num_items, num_buckets, narrow_positions(num_items) ? 4 : 8).total;
}

}  // namespace bkt::detail::multisplit
