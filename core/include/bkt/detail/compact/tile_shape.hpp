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

// Tuning (measured on H100; see bench/compact_bench.cu). The macros exist for tuning runs only.
#ifndef BKT_COMPACT_CHUNKS
#define BKT_COMPACT_CHUNKS 4
#endif
#ifndef BKT_COMPACT_MIN_BLOCKS
#define BKT_COMPACT_MIN_BLOCKS 4
#endif
inline constexpr int compact_block_threads = 256;
inline constexpr int compact_chunks_per_thread = BKT_COMPACT_CHUNKS;
// Key-only tiles: at least this many blocks per SM (caps registers at 64; 4 blocks of 256 threads
// measured faster than 2 or 3). Pairs, and 1- and 2-byte keys (16 per run), spill under that cap.
inline constexpr int compact_min_blocks_per_sm = BKT_COMPACT_MIN_BLOCKS;

/// Elements per run: a run of the wider of key and value is 16 bytes, so keys load as one 16-byte
/// vector per run (Hopper's widest load).
constexpr int compact_chunk_items(std::size_t key_bytes, std::size_t value_bytes) {
  return static_cast<int>(16 / (key_bytes > value_bytes ? key_bytes : value_bytes));
}

constexpr std::int64_t compact_tile_items(std::size_t key_bytes, std::size_t value_bytes) {
  return std::int64_t{compact_block_threads} * compact_chunks_per_thread * compact_chunk_items(key_bytes, value_bytes);
}

/// Each thread holds `chunks` runs of `chunk_items` consecutive elements.
template <std::size_t KeyBytes, std::size_t ValueBytes>
struct tile_shape {
  static constexpr int block_threads = compact_block_threads;
  static constexpr int chunks = compact_chunks_per_thread;
  static constexpr int min_blocks = ValueBytes == 0 && KeyBytes >= 4 ? compact_min_blocks_per_sm : 1;
  static constexpr int chunk_items = compact_chunk_items(KeyBytes, ValueBytes);
  static constexpr int items_per_thread = chunks * chunk_items;
  static constexpr int warps = block_threads / 32;
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
