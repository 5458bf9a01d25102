// Selection's option and result types (bkt/select.hpp has the calls and the order they select in).
// Plain C++, no CUDA headers.
#pragma once

#include <cstdint>

namespace bkt {

/// Which algorithm a selection runs. automatic, the only one offered: the randomized two-pivot
/// filter (bkt/select.hpp), which counts and stores in one read with two comparisons per element.
/// It was the fastest on every input measured, against SampleSelect, quickselect, bucketselect and
/// sorting; those stay in the bench and the tests as baselines (bkt/detail/select/baselines.hpp),
/// and docs/primitives/select.md says by how much each loses. An algorithm that wins on some
/// inputs would become a value here.
enum class select_algorithm { automatic };

/// Options of select_kth and multiselect.
struct select_options {
  select_algorithm algorithm = select_algorithm::automatic;
  /// Seeds the sampling; results are exact (and the same) for every seed, only the time varies.
  std::uint64_t seed = 0x9e3779b97f4a7c15ull;
};

/// An approximate k-th element and its certificate: `value` is an element of the input whose
/// ranks (positions in ascending order, equal elements included) are exactly
/// [rank_first, rank_last]; rank_error = its distance from k (0 when k lies in that range).
template <class T>
struct approx_selection {
  T value;
  std::int64_t rank_first;
  std::int64_t rank_last;
  std::int64_t rank_error;
};

/// Options of approx_select.
struct approx_select_options {
  /// Candidates drawn from a sorted sample around the target; one read of the input ranks all of
  /// them exactly and the closest wins. More candidates or a bigger sample: a smaller error.
  int candidates = 255;  ///< 1 to 1024
  int sample_size = 8192;  ///< at most 8192 are drawn (one block sorts them)
  std::uint64_t seed = 0x9e3779b97f4a7c15ull;
};

/// Options of top_k, top_k_pairs and top_k_batched.
struct top_k_options {
  bool largest = true;  /// false: the k smallest
  /// true: values_out/indices_out list the selected elements from the first (largest, or
  /// smallest) to the k-th, equal keys by position; false: in an unspecified order.
  bool sorted = false;
  select_algorithm algorithm = select_algorithm::automatic;
  std::uint64_t seed = 0x9e3779b97f4a7c15ull;
};

}  // namespace bkt
