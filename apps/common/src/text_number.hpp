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

/// Appends the text of the `type` at `value`: decimal integers; floats in the shortest form that
/// reads back to the same bits, except that a NaN's payload is lost (its sign is kept).
void append_number(std::string& text, const void* value, dtype type);

}  // namespace bkt::apps::detail
