// Tick positions and labels for chart axes: "nice" steps of 1, 2 or 5 times a power of ten.
#pragma once

#include <string>
#include <vector>

namespace bkt::apps::histogram {

struct tick {
  double value;
  std::string label;
};

/// About `target` ticks at a nice step, labelled with as many decimals as the step needs (so 0.1 * 3
/// prints "0.3"): inside [lo, hi], or with `cover` from the last step at or below lo to the first at
/// or above hi (a value axis whose top tick clears the tallest bar).
std::vector<tick> linear_ticks(double lo, double hi, int target, bool cover = false);

/// Ticks for a log10 axis over [lo, hi] (lo > 0): the powers of ten inside, or, when fewer than
/// two powers fit, linear ticks.
std::vector<tick> log_ticks(double lo, double hi, int target);

}  // namespace bkt::apps::histogram
