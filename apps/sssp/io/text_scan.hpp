// The hand-written scanner under every graph parser: fields separated by blanks (and, in edge
// lists, one comma), decimal vertex ids, integer and float weights. The common case (digits, then
// a separator) is inline and never allocates; anything else goes to the out-of-line slow path in
// text_scan.cpp, which parses it fully or throws a parse_failure.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "graph.hpp"

namespace bkt::sssp::detail {

/// A problem at a byte offset of the input; the loader turns the offset into "FILE:LINE: ".
struct parse_failure {
  std::int64_t offset = 0;  // in the text being parsed (a window of a gzip input)
  std::string message;
  std::int64_t needed_bytes = 0;  // > 0: not bad text but a graph too large for the memory budget:
                                  // `message` names what needs the bytes
  std::int64_t line = 0;          // the 1-based line, once resolved (0: not yet)
};

inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }
inline bool is_digit(char c) { return static_cast<unsigned char>(c - '0') < 10; }
inline const char* skip_blanks(const char* p) {
  while (is_blank(*p)) ++p;
  return p;
}
/// The start of the next line: one past the '\n' at or after p (the buffer's sentinel stops it).
const char* next_line(const char* p);

/// A token of the input as a message shows it: as it is when short and plain, else quoted,
/// escaped and cut (apps::quoted_excerpt), so that no message echoes control bytes or megabytes.
std::string token_text(std::string_view token);

/// scan_unsigned for more than 19 digits: nullptr when they overflow 64 bits.
const char* scan_long_unsigned(const char* p, std::uint64_t& value);

/// Reads the decimal digits at p into `value`; returns the end of the digits, or nullptr when
/// there are none or they overflow 64 bits.
inline const char* scan_unsigned(const char* p, std::uint64_t& value) {
  const char* const start = p;
  std::uint64_t total = 0;
  while (is_digit(*p)) total = total * 10 + static_cast<unsigned>(*p++ - '0');
  if (p == start) return nullptr;
  // 19 digits never overflow 64 bits; longer numbers (rare) are checked digit by digit.
  if (p - start > 19) return scan_long_unsigned(start, value);
  value = total;
  return p;
}

/// A weight as written: an integer (when it is only digits, maybe signed) or a float.
struct weight_text {
  bool is_float = false;
  bool too_large = false;  // an integer of 2^32 or more: fine as a float, an error as an integer
  std::uint32_t integer = 0;
  float real = 0;  // the value when is_float or too_large
};

/// How the fields of one input are read: which ids are valid, whether commas separate fields.
/// `base` is the start of the input, so that failures carry offsets from it.
class field_scanner {
 public:
  field_scanner(const char* base, std::uint64_t first_id, std::uint64_t last_id, bool commas)
      : base_(base), first_id_(first_id), last_id_(last_id), commas_(commas) {}

  /// Reads the vertex id at p (file numbering, first_id..last_id) into `id` as 0-based.
  const char* vertex_id(const char* p, vertex& id) const {
    std::uint64_t value = 0;
    const char* end = scan_unsigned(p, value);
    if (end == nullptr || !ends_field(*end) || value < first_id_ || value > last_id_) bad_vertex(p);
    id = static_cast<vertex>(value - first_id_);
    return end;
  }

  /// Reads a weight at p: digits go the fast way, anything else through the slow path.
  const char* weight(const char* p, weight_text& out) const {
    std::uint64_t value = 0;
    const char* end = scan_unsigned(p, value);
    if (end != nullptr && ends_field(*end) && value <= std::numeric_limits<std::uint32_t>::max()) {
      out.is_float = false;
      out.too_large = false;
      out.integer = static_cast<std::uint32_t>(value);
      return end;
    }
    return weight_slow(p, out);
  }
  /// A weight that must be an integer below 2^32 (DIMACS, MatrixMarket integer).
  const char* integer_weight(const char* p, std::uint32_t& out) const {
    weight_text text;
    const char* end = weight(p, text);
    if (text.is_float || text.too_large) bad_integer_weight(p, text);
    out = text.integer;
    return end;
  }
  /// A weight stored as a float (MatrixMarket real): integers are rounded to float once.
  const char* float_weight(const char* p, float& out) const {
    weight_text text;
    const char* end = weight(p, text);
    out = text.is_float || text.too_large ? text.real : static_cast<float>(text.integer);
    return end;
  }

  /// Reads a count (a header's size field) at p; anything but digits fails as fail_line.
  const char* count_field(const char* p, std::uint64_t& value, const char* expected) const {
    const char* end = scan_unsigned(p, value);
    if (end == nullptr || !ends_field(*end)) fail_line(p, expected);
    return end;
  }

  /// Moves from the end of one field to the start of the next: blanks, and in edge lists at most
  /// one comma. Throws when the line ends first; `expected` describes the line ("a U V W").
  const char* next_field(const char* p, const char* expected) const {
    p = skip_blanks(p);
    if (commas_ && *p == ',') p = skip_blanks(p + 1);
    if (*p == '\n' || (commas_ && *p == ',')) missing_field(p, expected);
    return p;
  }
  /// Checks that only blanks remain on the line; returns the start of the next line.
  const char* end_of_line(const char* p, const char* expected) const {
    p = skip_blanks(p);
    if (*p != '\n') extra_text(p, expected);
    return p + 1;
  }

  /// Throws a parse_failure at p.
  [[noreturn]] void fail(const char* p, std::string message) const;
  /// "expected 'EXPECTED', found 'THE LINE'" at p.
  [[noreturn]] void fail_line(const char* p, const char* expected) const;

  const char* base() const noexcept { return base_; }

 private:
  bool ends_field(char c) const { return is_blank(c) || c == '\n' || (commas_ && c == ','); }
  /// The end of the field at p: its first blank, newline or separating comma.
  const char* field_end(const char* p) const;
  [[noreturn]] void bad_vertex(const char* p) const;
  [[noreturn]] void bad_integer_weight(const char* p, const weight_text& text) const;
  [[noreturn]] void missing_field(const char* p, const char* expected) const;
  [[noreturn]] void extra_text(const char* p, const char* expected) const;
  const char* weight_slow(const char* p, weight_text& out) const;

  const char* base_;
  std::uint64_t first_id_;
  std::uint64_t last_id_;
  bool commas_;
};

}  // namespace bkt::sssp::detail
