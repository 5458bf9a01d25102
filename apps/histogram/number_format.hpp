// Numbers as the tool prints them: the shortest text that reads back to the same value.
#pragma once

#include <cstdint>
#include <string>

namespace bkt::apps::histogram {

/// Shortest round-trip text of a double: 5 prints as "5", 0.1 as "0.1", 1e300 as "1e+300".
std::string format_double(double value);

/// Shortest round-trip text of a float, so that float edges print as the float they are
/// (0.1f as "0.1", not "0.10000000149011612").
std::string format_float(float value);

/// An edge of a histogram: as a float when the bins were computed in single precision.
std::string format_edge(double edge, bool single_precision);

/// A fraction with a fixed six decimals ("0.250000"), so that columns line up.
std::string format_fraction(double fraction);

}  // namespace bkt::apps::histogram
