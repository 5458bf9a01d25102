// Bins a stream of chunks and keeps the running totals, on the GPU (the library's device API, one
// workspace and one set of device buffers reused for every chunk) or on the CPU (bkt::ref, the
// library's CPU reference with the same bin functors).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "bin_spec.hpp"
#include "bkt/types.hpp"  // BKT_FOR_EACH_HISTOGRAM_TYPE: the types binned here

namespace bkt::apps::histogram {

template <class T>
class bin_counter {
 public:
  virtual ~bin_counter() = default;
  /// Bins one chunk of at most the capacity given at creation. `weights` is empty, or holds one
  /// weight per element. May return before the work is done, but is finished with `data` and
  /// `weights` when it returns, so the caller may refill them.
  virtual void add(std::span<const T> data, std::span<const double> weights) = 0;
  /// Waits for the work still in flight and folds it into the totals below.
  virtual void finish() = 0;

  std::vector<std::int64_t> counts;  // per bin, unweighted runs
  std::vector<double> sums;          // per bin, weighted runs
  std::int64_t outside_count = 0;    // what the library reported outside every bin
  double outside_weight = 0.0;
};

/// The CPU path: bkt::ref::histogram with bkt::even_bins / bkt::range_bins on each chunk.
template <class T>
std::unique_ptr<bin_counter<T>> make_cpu_counter(const bin_spec<T>& spec, bool weighted);

/// The GPU path: bkt::histogram_even / bkt::histogram_range on device copies of each chunk.
/// Allocates device memory for `chunk_items` elements (and weights) up front; throws bkt::error when
/// the device is out of memory.
template <class T>
std::unique_ptr<bin_counter<T>> make_gpu_counter(const bin_spec<T>& spec, bool weighted, std::int64_t chunk_items);

}  // namespace bkt::apps::histogram
