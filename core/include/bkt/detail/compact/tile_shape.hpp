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

// Tile geometry, measured on H100 (bench/NOTES-compact.md). Three kinds of input take different
// shapes: key-only with keys of 4 bytes or more ("wide"), key-only with 1- or 2-byte keys
// ("narrow": more elements per run, more registers), and key-value pairs (a tile waits on its
// value loads, which a second block per SM covers). Tiles come through a ring of shared-memory
// stages that the bulk copy engine fills; a staged tile waits `lag` steps for its look-back
// before it is written out, so the look-back's L2 round trips stay off the critical path. Large
// tiles measured best (40 KB wide tiles: fewer barriers and look-backs per byte); the shared
// memory left (227 KB a block) decides the stages. The macros exist for tuning runs only
// (scripts/tune-compact.sh).
struct shape_tuning {
  int ranking_threads;
  int chunks;      // runs of 16 bytes per thread
  int stages;      // of the ring, at least 1
  int lag;         // steps a staged tile waits for its look-back before it is written out
  int min_blocks;  // per SM, for the register budget
};

#ifndef BKT_COMPACT_WIDE
#define BKT_COMPACT_WIDE 512, 5, 2, 2, 1
#endif
#ifndef BKT_COMPACT_NARROW
#define BKT_COMPACT_NARROW 256, 4, 3, 2, 1
#endif
#ifndef BKT_COMPACT_PAIRS
#define BKT_COMPACT_PAIRS 192, 4, 3, 2, 2
#endif

constexpr shape_tuning compact_tuning(std::size_t key_bytes, std::size_t value_bytes) {
  if (value_bytes > 0) return {BKT_COMPACT_PAIRS};
  return key_bytes >= 4 ? shape_tuning{BKT_COMPACT_WIDE} : shape_tuning{BKT_COMPACT_NARROW};
}

/// Elements per run: a run of the wider of key and value is 16 bytes, so keys load as one 16-byte
/// vector per run (Hopper's widest load).
constexpr int compact_chunk_items(std::size_t key_bytes, std::size_t value_bytes) {
  return static_cast<int>(16 / (key_bytes > value_bytes ? key_bytes : value_bytes));
}

constexpr std::int64_t compact_tile_items(std::size_t key_bytes, std::size_t value_bytes) {
  const shape_tuning t = compact_tuning(key_bytes, value_bytes);
  return std::int64_t{t.ranking_threads} * t.chunks * compact_chunk_items(key_bytes, value_bytes);
}

/// Each ranking thread holds `chunks` runs of `chunk_items` consecutive elements; a block is
/// `warps` ranking warps and one look-back warp.
template <std::size_t KeyBytes, std::size_t ValueBytes>
struct tile_shape {
  static constexpr shape_tuning tuning = compact_tuning(KeyBytes, ValueBytes);
  static constexpr int ranking_threads = tuning.ranking_threads;
  static constexpr int block_threads = ranking_threads + 32;
  static constexpr int chunks = tuning.chunks;
  static constexpr int stages = tuning.stages;
  static constexpr int lag = tuning.lag;
  static constexpr int out_buffers = lag + 1;
  static constexpr int min_blocks = tuning.min_blocks;
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
