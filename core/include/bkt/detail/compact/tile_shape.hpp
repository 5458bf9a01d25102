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

// Tile geometry. Three kinds of input take different shapes: key-only with keys of 4 bytes or
// more ("wide"), key-only with 1- or 2-byte keys ("narrow": more elements per run, more
// registers), and key-value pairs (a tile waits on its value loads, which a second block per SM
// covers). Tiles come through a ring of shared-memory stages that the bulk copy engine fills; a
// staged tile waits `lookback_lag` steps for its look-back before it is written out, so the
// look-back's L2 round trips stay off the critical path. Where each value comes from:
// docs/primitives/compact.md; scripts/tune-compact.sh reproduces the wide one.
struct compact_tuning {
  int ranking_threads;    // threads that load, rank, stage and write tiles; one look-back warp comes on top
  int runs_per_thread;    // runs of 16 bytes (of the wider of key and value) each ranking thread holds
  int ring_stages;        // shared-memory stages the copy engine fills ahead of the ranking warps, at least 1
  int lookback_lag;       // steps a staged tile waits for its look-back before it is written out
  int min_blocks_per_sm;  // resident blocks per SM asked of the register allocator (__launch_bounds__)
};

// A tuning run replaces a shape by defining its macro as a braced, designated initializer of
// compact_tuning in a pre-included header (scripts/tune-compact.sh); builds never define them.
#ifdef BKT_COMPACT_WIDE_TUNING
inline constexpr compact_tuning wide_keys_tuning BKT_COMPACT_WIDE_TUNING;
#else
/// Key-only compaction of keys of 4 bytes or more.
inline constexpr compact_tuning wide_keys_tuning{
    .ranking_threads = 512, .runs_per_thread = 5, .ring_stages = 2, .lookback_lag = 2, .min_blocks_per_sm = 1};
#endif
#ifdef BKT_COMPACT_NARROW_TUNING
inline constexpr compact_tuning narrow_keys_tuning BKT_COMPACT_NARROW_TUNING;
#else
/// Key-only compaction of 1- or 2-byte keys.
inline constexpr compact_tuning narrow_keys_tuning{
    .ranking_threads = 256, .runs_per_thread = 4, .ring_stages = 3, .lookback_lag = 2, .min_blocks_per_sm = 1};
#endif
#ifdef BKT_COMPACT_PAIRS_TUNING
inline constexpr compact_tuning pairs_tuning BKT_COMPACT_PAIRS_TUNING;
#else
/// Key-value compaction.
inline constexpr compact_tuning pairs_tuning{
    .ranking_threads = 192, .runs_per_thread = 4, .ring_stages = 3, .lookback_lag = 2, .min_blocks_per_sm = 2};
#endif

constexpr compact_tuning choose_tuning(std::size_t key_bytes, std::size_t value_bytes) {
  if (value_bytes > 0) return pairs_tuning;
  return key_bytes >= 4 ? wide_keys_tuning : narrow_keys_tuning;
}

/// Elements per run: a run of the wider of key and value is 16 bytes, so keys load as one 16-byte
/// vector per run (Hopper's widest load).
constexpr int compact_run_items(std::size_t key_bytes, std::size_t value_bytes) {
  return static_cast<int>(16 / (key_bytes > value_bytes ? key_bytes : value_bytes));
}

constexpr std::int64_t compact_tile_items(std::size_t key_bytes, std::size_t value_bytes) {
  const compact_tuning tuning = choose_tuning(key_bytes, value_bytes);
  return std::int64_t{tuning.ranking_threads} * tuning.runs_per_thread * compact_run_items(key_bytes, value_bytes);
}

/// Each ranking thread holds `runs_per_thread` runs of `run_items` consecutive elements; a block is
/// `ranking_warps` ranking warps and one look-back warp.
template <std::size_t KeyBytes, std::size_t ValueBytes>
struct tile_shape {
  static constexpr compact_tuning tuning = choose_tuning(KeyBytes, ValueBytes);
  static constexpr int ranking_threads = tuning.ranking_threads;
  static constexpr int block_threads = ranking_threads + 32;
  static constexpr int runs_per_thread = tuning.runs_per_thread;
  static constexpr int ring_stages = tuning.ring_stages;
  static constexpr int lookback_lag = tuning.lookback_lag;
  static constexpr int output_buffers = lookback_lag + 1;  // the tile being staged and the `lookback_lag` waiting
  static constexpr int min_blocks_per_sm = tuning.min_blocks_per_sm;
  static constexpr int run_items = compact_run_items(KeyBytes, ValueBytes);
  static constexpr int items_per_thread = runs_per_thread * run_items;
  static constexpr int ranking_warps = ranking_threads / 32;
  static constexpr int warp_items = items_per_thread * 32;
  static constexpr int tile_items = warp_items * ranking_warps;
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
