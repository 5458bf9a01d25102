// Validators for the tools' number options, with messages a user can read ("'-3' must be > 0").
// CLI11's own Range prints its bounds with std::to_string, so PositiveNumber's reads as a
// 300-digit number, lets NaN through, and reports "1e3" for an integer option as out of range.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <limits>

namespace bkt::apps {

/// A whole-number option (a count, an index, a size in elements): decimal digits with an optional
/// sign, from `low` to `high`. Refuses what is not written as a whole number, as WSClean's -niter
/// does: an exponent ("1e3": "write 1000"), a fraction, a 0x prefix. Rewrites the text to plain
/// decimal, so that CLI11, which reads "010" as octal 8, converts the number that was checked:
/// give it to ->transform(), not ->check(), which would drop the rewrite.
CLI::Validator whole_number(std::int64_t low, std::int64_t high = std::numeric_limits<std::int64_t>::max());

/// A real-number option that must be finite and greater than `bound` (messages "must be > 0").
CLI::Validator number_above(double bound);

/// A real-number option that must be finite and at least `bound` (messages "must be >= 0").
CLI::Validator number_at_least(double bound);

}  // namespace bkt::apps
