// What one run of bkt-histogram found: the bins, what they hold, what fell outside them, and how
// long it took. Every renderer (table, JSON, SVG, terminal bars) reads only this.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bkt::apps::histogram {

enum class binning_kind { even, log, edges };

/// Elements (or their weights) in no bin, split the way a reader wants them: below the first edge,
/// at or above the last, and NaN. The library reports these as one "outside" number; the tool
/// splits them on the host in the same pass over each chunk.
struct outside_tally {
  std::int64_t below = 0;
  std::int64_t above = 0;
  std::int64_t nan = 0;
  double below_weight = 0.0;  // the weights of those elements, when weighted
  double above_weight = 0.0;
  double nan_weight = 0.0;
};

struct histogram_result {
  std::string input;          // the data file's name as given ("-" for stdin)
  std::string weights_input;  // empty when unweighted
  std::string dtype;          // the data's element type as read ("f32", "u8", ...)
  std::string binned_as;      // the type the bins were computed in (the data's, or f64)
  binning_kind kind = binning_kind::even;
  std::vector<double> edges;  // bins + 1 ascending; for even bins the nominal lo + i * (hi - lo) / bins
  bool single_precision_edges = false;  // print edges as floats (the bins were computed in f32)
  std::vector<std::int64_t> counts;     // per bin, when unweighted
  std::vector<double> sums;             // per bin weight sums, when weighted
  outside_tally outside;
  std::int64_t elements = 0;  // every element read, in a bin or not
  double seconds = 0.0;       // reading and binning, wall clock
  std::string device;         // the GPU's name, or "CPU"

  bool weighted() const { return !weights_input.empty(); }
  std::int64_t bins() const { return static_cast<std::int64_t>(edges.size()) - 1; }
  /// Bin i's count or weight sum.
  double value(std::int64_t bin) const;
  /// The sum over all bins (counts or weights).
  double in_range_total() const;
  /// Outside every bin: below + above + NaN (counts or weights).
  double outside_total() const;
  double below() const { return weighted() ? outside.below_weight : static_cast<double>(outside.below); }
  double above() const { return weighted() ? outside.above_weight : static_cast<double>(outside.above); }
  double nan() const { return weighted() ? outside.nan_weight : static_cast<double>(outside.nan); }
};

/// "count" or "weight": what a bin holds, for column headers and labels.
std::string value_name(const histogram_result& result);

/// Bin i's value as text: an integer count, or a weight sum in its shortest round-trip form.
std::string format_value(const histogram_result& result, double value);

}  // namespace bkt::apps::histogram
