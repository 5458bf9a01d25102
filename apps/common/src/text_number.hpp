// Numbers as text: exact parsing (integers never pass through double; floats are rounded once, to
// their own type) and the shortest text that reads back to the same value (std::to_chars).
#pragma once

#include <string>
#include <string_view>

#include "bkt_apps/dtype.hpp"

namespace bkt::apps::detail {

/// Parses all of `field` (no surrounding spaces) as a `type` into `out`. Returns an empty string
/// on success, else why it failed ("not a number: 'x'", "'300' is out of range for u8").
std::string parse_number(std::string_view field, dtype type, void* out);

/// Which dtype reads a text column exactly, learned one field at a time: i64 while every field is
/// an integer (decimal digits with an optional sign) within i64; u64 once one exceeds i64's maximum
/// while none is negative; f64 once a field is anything else (1e3, 1.0, inf, nan, not a number at
/// all), lies beyond u64, or negatives meet values above i64's maximum.
class column_dtype {
 public:
  /// Takes one field (no surrounding spaces); false once the column can only be f64, after which
  /// further fields change nothing.
  bool add(std::string_view field);
  /// i64, u64 or f64; f64 when no field was added (as NumPy's loadtxt reads an empty column).
  dtype type() const;
  bool empty() const { return !seen_; }

 private:
  bool seen_ = false;
  bool negative_ = false;   // a value below zero
  bool above_i64_ = false;  // a value above i64's maximum (and within u64)
  bool floating_ = false;   // a field that only f64 reads
};

/// Appends the text of the `type` at `value`: decimal integers; floats in the shortest form that
/// reads back to the same bits, except that a NaN's payload is lost (its sign is kept).
void append_number(std::string& text, const void* value, dtype type);

}  // namespace bkt::apps::detail
