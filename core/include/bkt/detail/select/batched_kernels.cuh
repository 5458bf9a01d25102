// Batched top-k kernels over a rows x cols matrix (bkt::top_k_batched), both on the register tile
// of row_tile.cuh, both persistent (a block takes rows blockIdx.x, + gridDim.x, ...), and both load
// the next tile while they select in this one, so that a block's 16 KB of loads stay in flight
// through its barriers:
// - short_rows_kernel, rows of at most 4096: one tile a row, its cut emitted to the outputs;
// - long_rows_kernel, longer rows, k <= 2048: the row's tiles stream through a buffer of
//   candidates in shared memory (4096 records, in position order). The first tile's k smallest
//   start it, and their cut's pivot bounds what may enter: a later element must have a word below
//   it (a later position never wins a tie). A buffer of more than 2k (or 4096 - k) is cut to its k
//   smallest, which tightens the bound; a tile whose candidates do not fit is cut to its k first.
//   For uniform data the candidates a tile brings halve with each doubling of the elements seen,
//   so most tiles cost a conversion, a comparison and one block scan an element. The buffer's cut
//   gives the outputs.
// Outputs are values (the element back from its word, or reloaded for a NaN, whose word forgets
// its bits) and indices (32- or 64-bit), written from shared memory in coalesced stores (a short
// row's k > 2048 directly); sorted outputs sort the selected records in shared memory by word,
// stably, so that equal words stay in position order.
#pragma once

#include <cstdint>

#include "bkt/detail/select/row_tile.cuh"

namespace bkt::detail::select::row_tiles {

/// Writes row r's selected elements: output slot j of the row gets the element of word w at
/// position p (values and indices each optional).
template <class T>
struct row_outputs {
  using W = radix_word<T>;
  const T* row;
  T* values;         // this row's first output, or null
  void* indices;     // this row's first output (std::uint32_t or std::int64_t), or null
  bool wide_indices;
  W flip;
  __device__ void operator()(unsigned j, W w, std::uint32_t p) const {
    if (values) {
      const W bits = static_cast<W>(w ^ flip);
      // Every NaN has the largest selection word: its own bits come from the input.
      if (std::is_floating_point_v<T> && bits == static_cast<W>(~W{0}))
        values[j] = row[p];
      else
        values[j] = from_select_bits<T>(bits);
    }
    if (indices) {
      if (wide_indices)
        static_cast<std::int64_t*>(indices)[j] = p;
      else
        static_cast<std::uint32_t*>(indices)[j] = p;
    }
  }
};

/// Row r's outputs: its k values and indices (4 or 8 bytes each) at r * k.
template <class T>
__device__ row_outputs<T> outputs_of_row(const T* data, std::int64_t r, std::int64_t cols, std::int64_t k, T* values,
                                         void* indices, bool wide_indices, radix_word<T> flip) {
  const std::int64_t first = r * k;
  void* row_indices = indices ? static_cast<char*>(indices) + (wide_indices ? 8 : 4) * first : nullptr;
  return {data + r * cols, values ? values + first : nullptr, row_indices, wide_indices, flip};
}

/// Writes k records (words[j], positions[j]: shared memory, in position order) sorted by word
/// (stable: equal words keep their order). Every thread of the block calls it; the records may lie
/// in s.big.selected.
template <class W, class Output>
__device__ void write_sorted(tile_storage<W, true>& s, unsigned k, const W* words, const std::uint32_t* positions,
                             const Output& out) {
  using storage = tile_storage<W, true>;
  __syncthreads();
  W keys[items];
  std::uint32_t where[items];
#pragma unroll
  for (int i = 0; i < items; ++i) {
    const unsigned j = threadIdx.x * items + i;
    keys[i] = j < k ? words[j] : static_cast<W>(~W{0});  // padding sorts last (stable)
    where[i] = j < k ? positions[j] : ~0u;
  }
  __syncthreads();
  typename storage::sort(s.big.sort_temp).Sort(keys, where);
#pragma unroll
  for (int i = 0; i < items; ++i) {
    const unsigned j = threadIdx.x * items + i;
    if (j < k) out(j, keys[i], where[i]);
  }
  __syncthreads();  // the next selection reuses these bytes
}

/// Emits cut `c` of a tile into `to`, in position order: slot j gets the record's word and its row
/// position, position(i) for this thread's item i.
template <class W, bool Sorted, int Count, class Position>
__device__ void stage_cut(tile_storage<W, Sorted>& s, const W (&words)[items], unsigned valid, cut<W> c,
                          Position position, record_arrays<W, Count>& to) {
  emit_cut(s, words, valid, c, [&](int i, W w, unsigned j) {
    to.words[j] = w;
    to.positions[j] = position(i);
  });
}

/// Emits cut `c` of a tile to the outputs in word order, through write_sorted.
template <class W, class Position, class Output>
__device__ void emit_sorted(tile_storage<W, true>& s, const W (&words)[items], unsigned valid, cut<W> c, unsigned k,
                            Position position, const Output& out) {
  stage_cut(s, words, valid, c, position, s.big.selected);
  write_sorted(s, k, s.big.selected.words, s.big.selected.positions, out);
}

// Blocks an SM must hold, which caps the registers a thread: for the unsorted 4-byte kernels 4
// short-row blocks (64 registers: a thread holds a tile's 16 words and the next tile's 16
// elements; ptxas, sm_90, spills 4-24 bytes) and 3 long-row blocks (80; at 64 they spill 200 bytes);
// 2 (128) for 8-byte types and the block sort of a sorted output.
#ifndef BKT_BATCHED_TOPK_SHORT_BLOCKS
#define BKT_BATCHED_TOPK_SHORT_BLOCKS 4
#endif
#ifndef BKT_BATCHED_TOPK_LONG_BLOCKS
#define BKT_BATCHED_TOPK_LONG_BLOCKS 3
#endif
template <class T, bool Sorted, int Blocks>
inline constexpr int row_blocks = sizeof(T) == 8 || Sorted ? 2 : Blocks;

/// The short-row kernel's shared memory: a tile's selection and, for an unsorted output, the row's
/// selected records in output order, so that they leave in coalesced stores (k <= tile / 2; the
/// direct stores of one lane a record cost a store instruction each). A sorted output stages its
/// records in the selection's own bytes (tile_storage::selected).
template <class W, bool Sorted>
struct short_row_storage {
  tile_storage<W, Sorted> tile;
  std::conditional_t<Sorted, nothing, record_arrays<W, row_tiles::tile / 2>> selected;
};

/// Writes an unsorted output: through s.selected when k fits it, else directly.
template <class W, class Position, class Output>
__device__ void emit_unsorted(short_row_storage<W, false>& s, const W (&words)[items], unsigned valid, cut<W> c,
                              unsigned k, Position position, const Output& out) {
  if (k > static_cast<unsigned>(tile / 2)) {
    emit_cut(s.tile, words, valid, c, [&](int i, W w, unsigned j) { out(j, w, position(i)); });
    return;
  }
  stage_cut(s.tile, words, valid, c, position, s.selected);
  __syncthreads();  // every record is in; the next row's come after its selection's barriers
  for (unsigned j = threadIdx.x; j < k; j += threads) out(j, s.selected.words[j], s.selected.positions[j]);
}

/// Row r of `data` (rows x cols, cols <= tile): its k smallest records (by oriented word, then
/// position) to values/indices[r * k, (r + 1) * k). `Full`: cols == tile, so that every item is
/// valid and no pass over the tile tests a mask.
template <class T, bool Sorted, bool Full>
__global__ void __launch_bounds__(threads, row_blocks<T, Sorted, BKT_BATCHED_TOPK_SHORT_BLOCKS>)
    short_rows_kernel(const T* data, std::int64_t rows, int cols, int k, bool largest, T* values, void* indices,
                      bool wide_indices) {
  using W = radix_word<T>;
  extern __shared__ __align__(16) unsigned char shared[];
  auto& s = *reinterpret_cast<short_row_storage<W, Sorted>*>(shared);
  const W flip = largest ? static_cast<W>(~W{0}) : W{0};
  if constexpr (Full) cols = tile;
  const unsigned valid = Full ? all_items : valid_mask(cols, threadIdx.x);
  const auto position = [](int i) { return static_cast<std::uint32_t>(threadIdx.x * items + i); };
  // The next row's loads are in flight while this row is selected; not for a sorted output, whose
  // block sort needs those registers.
  constexpr bool prefetch = !Sorted;
  alignas(16) T raw[items] = {};  // load_tile fills it with 16-byte loads
  std::int64_t r = blockIdx.x;
  if (prefetch && r < rows) load_tile(data + r * cols, cols, raw);
  for (; r < rows; r += gridDim.x) {
    if (!prefetch) load_tile(data + r * cols, cols, raw);
    W words[items];
    oriented_words(raw, flip, words);
    if (prefetch && r + gridDim.x < rows) load_tile(data + (r + gridDim.x) * cols, cols, raw);
    const cut<W> c = tile_cut(s.tile, words, valid, static_cast<unsigned>(cols), static_cast<unsigned>(k));
    const row_outputs<T> out = outputs_of_row(data, r, cols, k, values, indices, wide_indices, flip);
    if constexpr (Sorted)
      emit_sorted(s.tile, words, valid, c, static_cast<unsigned>(k), position, out);
    else
      emit_unsorted(s, words, valid, c, static_cast<unsigned>(k), position, out);
  }
}

/// What the long-row kernel keeps beside a tile's selection: the candidate buffer, in position
/// order, and two scan storages that the per-tile count alternates between (a scan's storage may
/// be reused only after a barrier; alternating, the next scan's own barrier is that barrier).
template <class W, bool Sorted>
struct long_row_storage {
  tile_storage<W, Sorted> tile;
  W buffer_words[row_tiles::tile];
  std::uint32_t buffer_positions[row_tiles::tile];
  typename tile_storage<W, Sorted>::scan::TempStorage count_temp[2];
};

/// The buffer cut to its k smallest (in position order): its words into registers (blocked),
/// their cut, the cut's records to the selection's stage (k <= tile / 2 records of a word and a
/// position fit its bytes), then back to the buffer's front. Returns the new bound. Rare for most
/// inputs and called from two places, so not inlined: the streaming loop keeps its registers.
template <class W, bool Sorted>
__device__ __noinline__ W shrink_buffer(long_row_storage<W, Sorted>& s, unsigned count, unsigned k) {
  struct staged {
    W word;
    std::uint32_t position;
  };
  static_assert(sizeof(staged) * (tile / 2) <= sizeof(s.tile.big), "k <= tile / 2 records fit the stage");
  auto* stage = reinterpret_cast<staged*>(&s.tile.big);
  __syncthreads();  // the appends are done
  W words[items];
  const unsigned valid = valid_mask(count, threadIdx.x);
  for_valid(valid, [&](int i) { words[i] = s.buffer_words[threadIdx.x * items + i]; });
  const cut<W> c = tile_cut(s.tile, words, valid, count, k);
  emit_cut(s.tile, words, valid, c, [&](int i, W w, unsigned j) {
    stage[j] = {w, s.buffer_positions[threadIdx.x * items + i]};
  });
  __syncthreads();
  for (unsigned j = threadIdx.x; j < k; j += threads) {
    const staged r = stage[j];
    s.buffer_words[j] = r.word;
    s.buffer_positions[j] = r.position;
  }
  __syncthreads();  // the buffer is whole; the stage's bytes may be reused
  return c.pivot;
}

/// The buffer is cut to k once it holds more than this: at 2k, so that the bound tightens early
/// (for uniform data the candidates a tile brings halve with each doubling of the records seen),
/// and before a tile's k more could overflow it.
__device__ __forceinline__ unsigned shrink_above(unsigned k) {
  return 2 * k - 1 < static_cast<unsigned>(tile) - k ? 2 * k - 1 : static_cast<unsigned>(tile) - k;
}

/// One tile of a long row (its words in registers, `valid` of them): its candidates (below the
/// bound, once there is one) into the buffer, or, when they do not fit (the first tile), its cut of
/// k; then the buffer shrunk to k above shrink_above(k). `count`, `bound` and `bounded` are the
/// row's state, the same in every thread.
template <class W, bool Sorted>
__device__ void stream_tile(long_row_storage<W, Sorted>& s, const W (&words)[items], unsigned valid,
                            std::int64_t start, unsigned k, unsigned turn, unsigned& count, W& bound, bool& bounded) {
  unsigned flagged = 0;
  for_valid(valid, [&](int i) { flagged |= static_cast<unsigned>(!bounded || words[i] < bound) << i; });
  unsigned before, total;
  typename tile_storage<W, Sorted>::scan(s.count_temp[turn & 1]).ExclusiveSum(__popc(flagged), before, total);
  if (total == 0) return;
  const auto position = [&](int i) { return static_cast<std::uint32_t>(start + threadIdx.x * items + i); };
  if (!bounded || count + total > static_cast<unsigned>(tile)) {
    // count <= shrink_above(k) <= tile - k, so the tile's k fit.
    const cut<W> c = tile_cut(s.tile, words, flagged, total, k);
    const unsigned at = count;
    emit_cut(s.tile, words, flagged, c, [&](int i, W w, unsigned j) {
      s.buffer_words[at + j] = w;
      s.buffer_positions[at + j] = position(i);
    });
    count += k;
    bound = c.pivot;  // the tile's cut bounds the row's k-th record too
    bounded = true;
  } else {
    unsigned at = count + before;
    for_valid(flagged, [&](int i) {
      s.buffer_words[at] = words[i];
      s.buffer_positions[at] = position(i);
      ++at;
    });
    count += total;
  }
  if (count > shrink_above(k)) {
    bound = shrink_buffer(s, count, k);
    bounded = true;
    count = k;
  }
}

/// Rows of more than `tile` elements, k <= tile / 2: as short_rows_kernel, through the buffer.
template <class T, bool Sorted>
__global__ void __launch_bounds__(threads, row_blocks<T, Sorted, BKT_BATCHED_TOPK_LONG_BLOCKS>)
    long_rows_kernel(const T* data, std::int64_t rows, std::int64_t cols, int k, bool largest, T* values,
                     void* indices, bool wide_indices) {
  using W = radix_word<T>;
  extern __shared__ __align__(16) unsigned char shared[];
  auto& s = *reinterpret_cast<long_row_storage<W, Sorted>*>(shared);
  const W flip = largest ? static_cast<W>(~W{0}) : W{0};
  const auto tile_size = [cols](std::int64_t start) {
    return static_cast<int>(cols - start < tile ? cols - start : tile);
  };
  alignas(16) T raw[items] = {};  // load_tile fills it with 16-byte loads
  std::int64_t r = blockIdx.x;
  if (r < rows) load_tile(data + r * cols, tile_size(0), raw);
  unsigned turn = 0;
  for (; r < rows; r += gridDim.x) {
    unsigned count = 0;
    W bound = 0;
    bool bounded = false;
    for (std::int64_t start = 0; start < cols; start += tile, ++turn) {
      const int size = tile_size(start);
      W words[items];
      oriented_words(raw, flip, words);
      // The next tile (this row's, or the next row's first), in flight while this one streams.
      const bool last = start + tile >= cols;
      const std::int64_t next_row = last ? r + gridDim.x : r, next_start = last ? 0 : start + tile;
      if (next_row < rows) load_tile(data + next_row * cols + next_start, tile_size(next_start), raw);
      stream_tile(s, words, valid_mask(size, threadIdx.x), start, static_cast<unsigned>(k), turn, count, bound,
                  bounded);
    }
    // The row's k smallest: the buffer's, shrunk to k, in position order.
    if (count > static_cast<unsigned>(k)) shrink_buffer(s, count, static_cast<unsigned>(k));
    const row_outputs<T> out = outputs_of_row(data, r, cols, k, values, indices, wide_indices, flip);
    if constexpr (Sorted) {
      write_sorted(s.tile, static_cast<unsigned>(k), s.buffer_words, s.buffer_positions, out);
    } else {
      __syncthreads();  // the last appends are done
      for (unsigned j = threadIdx.x; j < static_cast<unsigned>(k); j += threads)
        out(j, s.buffer_words[j], s.buffer_positions[j]);
      __syncthreads();  // the next row's first tile writes the buffer
    }
  }
}

}  // namespace bkt::detail::select::row_tiles
