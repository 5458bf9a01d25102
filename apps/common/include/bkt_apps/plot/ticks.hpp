// Tick values and labels for numeric axes: "nice" steps of 1, 2 or 5 times a power of ten, and
// powers of ten for log axes.
#pragma once

#include <string>
#include <vector>

namespace bkt::apps::plot {

struct tick {
  double value;
  std::string label;
};

/// About `target` ticks at a nice step, labelled with as many decimals as the step needs (so
/// 0.1 * 3 prints "0.3"; steps beyond 1e-6 or values beyond 1e15 print as %.3g): inside [lo, hi],
/// or with `cover` from the last step at or below lo to the first at or above hi (a value axis
/// whose top tick clears the tallest bar). lo == hi, or a span that is not finite: one tick at lo.
std::vector<tick> linear_ticks(double lo, double hi, int target, bool cover = false);

/// Ticks for a log10 axis over [lo, hi] (lo > 0): the powers of ten inside, every k-th of them
/// when there are more than `target`; linear ticks when fewer than two powers fit. Powers from
/// 0.001 to 10000 print in full, others as 10 with a superscript exponent ("10⁻⁶").
std::vector<tick> log_ticks(double lo, double hi, int target);

/// "1000" or "10⁶": how log_ticks labels 10^exponent.
std::string power_of_ten_label(int exponent);

}  // namespace bkt::apps::plot
