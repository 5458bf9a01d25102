// Tile geometry and tuning for compaction, shared by the kernels and the workspace sizing.
#pragma once

#include <cstddef>
#include <cstdint>

namespace bkt::detail::compact {

/// Marks key-only compaction.
struct no_value {};

template <class Value>
inline constexpr std::size_t value_bytes = sizeof(Value);
template <>
inline constexpr std::size_t value_bytes<no_value> = 0;

// Tile geometry, measured on H100 (bench/NOTES-compact.md). Keys of 4 bytes or more without
// values take wide tiles: 480 ranking threads with 8 runs each (60 KB of f32 per tile) and the
// look-back warp make 512 threads with 128 registers each, one block per SM (512 ranking threads
// would leave 96 registers and spill). 1- and 2-byte keys hold more registers per element and take
// 256 ranking threads and 4 runs (224, which spills less, measured slower). Pairs take 224 and 4
// runs, two blocks per SM at 128 registers: one block of 256 measured 15-30 % slower, since a
// tile waits on its value loads. One tile's loads are in flight while a block
// ranks another: smaller tiles with two or three in flight measured slower. The macros exist for
// tuning runs only (scripts/tune-compact.sh).
#ifndef BKT_COMPACT_WIDE_THREADS
#define BKT_COMPACT_WIDE_THREADS 480
#endif
#ifndef BKT_COMPACT_WIDE_CHUNKS
#define BKT_COMPACT_WIDE_CHUNKS 8
#endif
#ifndef BKT_COMPACT_WIDE_AHEAD
#define BKT_COMPACT_WIDE_AHEAD 1
#endif

constexpr bool compact_wide_tiles(std::size_t key_bytes, std::size_t value_bytes) {
  return value_bytes == 0 && key_bytes >= 4;
}
constexpr int compact_ranking_threads(std::size_t key_bytes, std::size_t value_bytes) {
  if (compact_wide_tiles(key_bytes, value_bytes)) return BKT_COMPACT_WIDE_THREADS;
  return value_bytes > 0 ? 224 : 256;
}
/// Blocks per SM the kernel's registers must allow: pairs wait on their value loads inside a
/// tile, and a second block per SM covers that wait.
constexpr int compact_min_blocks(std::size_t value_bytes) { return value_bytes > 0 ? 2 : 1; }
constexpr int compact_chunks_per_thread(std::size_t key_bytes, std::size_t value_bytes) {
  return compact_wide_tiles(key_bytes, value_bytes) ? BKT_COMPACT_WIDE_CHUNKS : 4;
}
/// Tiles whose loads are in flight while a block ranks one.
constexpr int compact_tiles_ahead(std::size_t key_bytes, std::size_t value_bytes) {
  return compact_wide_tiles(key_bytes, value_bytes) ? BKT_COMPACT_WIDE_AHEAD : 1;
}

/// Elements per run: a run of the wider of key and value is 16 bytes, so keys load as one 16-byte
/// vector per run (Hopper's widest load).
constexpr int compact_chunk_items(std::size_t key_bytes, std::size_t value_bytes) {
  return static_cast<int>(16 / (key_bytes > value_bytes ? key_bytes : value_bytes));
}

constexpr std::int64_t compact_tile_items(std::size_t key_bytes, std::size_t value_bytes) {
  return std::int64_t{compact_ranking_threads(key_bytes, value_bytes)} * compact_chunks_per_thread(key_bytes, value_bytes) *
         compact_chunk_items(key_bytes, value_bytes);
}

/// Each ranking thread holds `chunks` runs of `chunk_items` consecutive elements; a block is
/// `warps` ranking warps and one look-back warp.
template <std::size_t KeyBytes, std::size_t ValueBytes>
struct tile_shape {
  static constexpr int ranking_threads = compact_ranking_threads(KeyBytes, ValueBytes);
  static constexpr int block_threads = ranking_threads + 32;
  static constexpr int chunks = compact_chunks_per_thread(KeyBytes, ValueBytes);
  static constexpr int tiles_ahead = compact_tiles_ahead(KeyBytes, ValueBytes);
  static constexpr int min_blocks = compact_min_blocks(ValueBytes);
  static constexpr int chunk_items = compact_chunk_items(KeyBytes, ValueBytes);
  static constexpr int items_per_thread = chunks * chunk_items;
  static constexpr int warps = ranking_threads / 32;
  static constexpr int warp_items = items_per_thread * 32;
  static constexpr int tile_items = warp_items * warps;
  static_assert(KeyBytes + ValueBytes > 0 && 16 % (KeyBytes > ValueBytes ? KeyBytes : ValueBytes) == 0,
                "elements of 1, 2, 4, 8 or 16 bytes");
};

/// Workspace: one look-back status word per tile.
constexpr std::size_t workspace_bytes(std::int64_t num_items, std::size_t key_bytes, std::size_t value_bytes) {
  if (num_items == 0) return 0;
  const std::int64_t tile_items = compact_tile_items(key_bytes, value_bytes);
  const std::int64_t tiles = (num_items + tile_items - 1) / tile_items;
  return static_cast<std::size_t>(tiles) * sizeof(std::uint64_t);
}

}  // namespace bkt::detail::compact
