// Bucket functors that search a table (splitters, bin edges) search a copy in shared memory: a
// block copies the table once, and every element's binary search then costs shared loads instead
// of global ones. Other functors pass through unchanged.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <cuda/std/limits>

#include "bkt/buckets.hpp"

namespace bkt::detail::multisplit {

/// Tables larger than this stay in global memory (searched through L1).
inline constexpr std::size_t max_shared_table_bytes = 32 * 1024;

template <class Fn>
struct shared_table {
  static std::size_t bytes(const Fn&) { return 0; }
  __device__ static Fn bind(const Fn& fn, unsigned char*) { return fn; }
};

/// Copies `count` elements of `table` into `shared` with every thread of the block; the caller
/// synchronises the block before the first search.
template <class T>
__device__ const T* copy_table(const T* table, std::size_t count, unsigned char* shared) {
  T* copy = reinterpret_cast<T*>(shared);
  for (std::size_t i = threadIdx.x; i < count; i += blockDim.x) copy[i] = table[i];
  return copy;
}

template <class Key>
struct shared_table<splitter_buckets<Key>> {
  using fn = splitter_buckets<Key>;
  __host__ __device__ static bool fits(const fn& f) {
    return sizeof(Key) * static_cast<std::size_t>(f.num_splitters) <= max_shared_table_bytes;
  }
  static std::size_t bytes(const fn& f) { return fits(f) ? sizeof(Key) * static_cast<std::size_t>(f.num_splitters) : 0; }
  __device__ static fn bind(const fn& f, unsigned char* shared) {
    if (!fits(f)) return f;
    return fn{copy_table(f.splitters, static_cast<std::size_t>(f.num_splitters), shared), f.num_splitters};
  }
};

/// range_bins on the device: a table of evenly spaced cells over [edges[0], edges[bins]) gives,
/// for each cell, the bins it may hold. Most cells (8192 cells, usually far fewer bins) lie inside
/// one bin, and an element there needs no search and no edge at all; in a cell that spans two
/// bins the one edge between them decides, and the rare cell that spans more searches only those
/// bins and then checks the exact edges. The cell arithmetic errs by far less than a sixteenth of
/// a cell (it runs in double where float could lose more), and each cell's span is widened by that
/// much on both sides, so rounding cannot change a result.
template <class T>
struct indexed_range_bins {
  static constexpr int cells = 8192;
  using math = std::conditional_t<std::is_same_v<T, float> || (std::is_integral_v<T> && sizeof(T) <= 2), float, double>;
  const T* edges;
  const std::uint32_t* cell_bins;  // low 16 bits: the first bin the cell may hold, high: the last
  int bins;
  T lowest, highest;               // edges[0] and edges[bins]
  math scale;                      // cells / (highest - lowest)

  __device__ __forceinline__ int operator()(const T& x) const {
    if (!(x >= lowest && x <= highest)) return bins;  // the last bin is closed (range_bins)
    int first = 0, count = bins;  // without a cell table: a binary search over all bins
    if (cell_bins != nullptr) {
      const math position = (static_cast<math>(x) - static_cast<math>(lowest)) * scale;
      const std::uint32_t span = cell_bins[position < static_cast<math>(cells) ? static_cast<int>(position) : cells - 1];
      first = static_cast<int>(span & 0xffffu);
      const int last = static_cast<int>(span >> 16);
      // The cell's span holds the element's bin (as the one-bin case trusts), so one edge between
      // two bins decides alone: most boundary cells cost one shared load, not a search.
      if (last <= first + 1) return last == first || x < edges[last] ? first : last;
      count = last - first + 1;
    }
    for (; count > 1;) {
      const int half = count / 2;
      const bool right = !(x < edges[first + half]);
      first = right ? first + half : first;
      count = right ? count - half : half;
    }
    while (x < edges[first]) --first;
    while (first + 1 < bins && !(x < edges[first + 1])) ++first;
    return first;
  }
};

template <class T>
struct shared_table<range_bins<T>> {
  using fn = range_bins<T>;
  using indexed = indexed_range_bins<T>;
  static constexpr std::size_t cell_bytes = indexed::cells * sizeof(std::uint32_t);
  __host__ __device__ static std::size_t edge_bytes(const fn& f) { return (sizeof(T) * (static_cast<std::size_t>(f.bins) + 1) + 15) / 16 * 16; }
  __host__ __device__ static bool fits(const fn& f) { return f.bins < 65536 && edge_bytes(f) <= max_shared_table_bytes; }
  static std::size_t bytes(const fn& f) { return fits(f) ? edge_bytes(f) + cell_bytes : 0; }

  /// Called by the whole block (it synchronises inside).
  __device__ static indexed bind(const fn& f, unsigned char* shared) {
    using math = typename indexed::math;
    if (!fits(f)) return indexed{f.edges, nullptr, f.bins, f.edges[0], f.edges[f.bins], math(0)};
    const T* edges = copy_table(f.edges, static_cast<std::size_t>(f.bins) + 1, shared);
    auto* cell_bins = reinterpret_cast<std::uint32_t*>(shared + edge_bytes(f));
    __syncthreads();
    const T lowest = edges[0], highest = edges[f.bins];
    const math scale = static_cast<math>(indexed::cells) / (static_cast<math>(highest) - static_cast<math>(lowest));
    // A range too narrow for the cells to be told apart: search every element.
    if (!(scale < cuda::std::numeric_limits<math>::infinity())) return indexed{edges, nullptr, f.bins, lowest, highest, math(0)};
    const fn on_shared{edges, f.bins};
    // The bin of the value `position` cells above the lowest edge, clamped to the bins. Rounding
    // that value to T keeps its order against every element, so a span computed from bounds
    // that the element's own position cannot cross holds the element's bin.
    auto bin_at = [&](math position) {
      const math value = static_cast<math>(lowest) + position / scale;
      const int bin = !(value >= static_cast<math>(lowest)) ? 0 : on_shared(static_cast<T>(value));
      return static_cast<std::uint32_t>(bin >= f.bins ? f.bins - 1 : bin);
    };
    // The element's cell errs by far less than this margin (a few ulps of a position below cells).
    constexpr math margin = math(1) / 16;
    for (int c = static_cast<int>(threadIdx.x); c < indexed::cells; c += static_cast<int>(blockDim.x))
      cell_bins[c] = bin_at(static_cast<math>(c) - margin) | (bin_at(static_cast<math>(c + 1) + margin) << 16);
    return indexed{edges, cell_bins, f.bins, lowest, highest, scale};
  }
};

/// Shared memory the functor's table takes, rounded up to 16 bytes so that what follows is aligned.
template <class Fn>
std::size_t shared_table_bytes(const Fn& fn) {
  return (shared_table<Fn>::bytes(fn) + 15) / 16 * 16;
}

/// The functor's bucket for `key`, clamped into [0, num_buckets) as bkt/buckets.hpp promises.
template <class Fn, class Key>
__device__ __forceinline__ unsigned clamped_bucket(const Fn& fn, const Key& key, int num_buckets) {
  const unsigned bucket = static_cast<unsigned>(fn(key));
  return bucket < static_cast<unsigned>(num_buckets) ? bucket : static_cast<unsigned>(num_buckets - 1);
}

}  // namespace bkt::detail::multisplit
