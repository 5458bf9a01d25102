// Edges of f16 data, which the library does not bin: NumPy's edges for it are float16 values, so
// the tool computes them here and bins the data (exact in f64) between them with histogram_range.
#pragma once

#include <vector>

namespace bkt::apps::histogram {

/// `value` rounded to the nearest IEEE half-precision value (ties to even; beyond 65504: inf).
double round_to_half(double value);

/// numpy.linspace(lo, hi, bins + 1) with float16 bounds, computed in float16 as NumPy does (each
/// operation rounded to half: exact products and sums in double, then one rounding). lo and hi are
/// half values.
std::vector<double> half_linspace(double lo, double hi, int bins);

}  // namespace bkt::apps::histogram
