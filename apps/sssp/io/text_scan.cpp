// The slow path of the field scanner: signs, fractions, exponents, NaN and infinity, and the
// messages for everything that is not a valid field.
#include "io/text_scan.hpp"

#include <charconv>
#include <cmath>
#include <cstring>
#include <string_view>

#include "bkt_apps/app_error.hpp"

namespace bkt::sssp::detail {
namespace {

/// The line around p without its newline, quoted and cut to a readable length, for messages.
std::string line_excerpt(const char* base, const char* p) {
  const char* start = p;
  while (start > base && start[-1] != '\n') --start;
  const char* end = static_cast<const char*>(::rawmemchr(start, '\n'));
  while (end > start && end[-1] == '\r') --end;
  return apps::quoted_excerpt(std::string_view(start, static_cast<std::size_t>(end - start)), 60);
}

bool all_digits(std::string_view text) {
  if (text.empty()) return false;
  for (const char c : text)
    if (!is_digit(c)) return false;
  return true;
}

/// A float from text that from_chars found out of range: tiny magnitudes round to a denormal or
/// zero like any other rounding; only values beyond FLT_MAX are errors.
bool tiny_float(std::string_view text, float& out) {
  double value = 0;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
  if (result.ptr != text.data() + text.size()) return false;
  if (result.ec == std::errc::result_out_of_range || std::fabs(value) >= 1) return false;
  out = static_cast<float>(value);
  return true;
}

}  // namespace

// rawmemchr: the buffer's sentinel newline guarantees a match, so no length is needed.
const char* next_line(const char* p) { return static_cast<const char*>(::rawmemchr(p, '\n')) + 1; }

std::string token_text(std::string_view token) {
  constexpr std::size_t longest = 40;
  bool plain = token.size() <= longest && !token.empty();
  for (const char c : token) plain = plain && c > ' ' && c < 0x7f && c != '\'' && c != '\\';
  return plain ? std::string(token) : apps::quoted_excerpt(token, longest);
}

const char* scan_long_unsigned(const char* p, std::uint64_t& value) {
  std::uint64_t total = 0;
  for (; is_digit(*p); ++p)
    if (__builtin_mul_overflow(total, 10u, &total) || __builtin_add_overflow(total, static_cast<unsigned>(*p - '0'), &total))
      return nullptr;
  value = total;
  return p;
}

void field_scanner::fail(const char* p, std::string message) const {
  throw parse_failure{p - base_, std::move(message)};
}

void field_scanner::fail_line(const char* p, const char* expected) const {
  fail(p, std::string("expected '") + expected + "', found " + line_excerpt(base_, p));
}

const char* field_scanner::field_end(const char* p) const {
  while (!ends_field(*p)) ++p;
  return p;
}

void field_scanner::bad_vertex(const char* p) const {
  const std::string_view field(p, static_cast<std::size_t>(field_end(p) - p));
  const std::string_view digits = field.starts_with('-') || field.starts_with('+') ? field.substr(1) : field;
  if (all_digits(digits))
    fail(p, "vertex " + token_text(field) + " is out of range " + std::to_string(first_id_) + ".." + std::to_string(last_id_));
  fail(p, "bad vertex id " + apps::quoted_excerpt(field, 40) + ": expected a non-negative integer");
}

void field_scanner::bad_integer_weight(const char* p, const weight_text& text) const {
  const std::string field = token_text(std::string_view(p, static_cast<std::size_t>(field_end(p) - p)));
  if (text.too_large) fail(p, "weight " + field + " is too large: integer weights must be below 2^32");
  fail(p, "weight " + field + " is not an integer");
}

void field_scanner::missing_field(const char* p, const char* expected) const {
  if (commas_ && *p == ',') fail(p, std::string("empty field: expected '") + expected + "'");
  fail_line(p, expected);
}

void field_scanner::extra_text(const char* p, const char* expected) const { fail_line(p, expected); }

const char* field_scanner::weight_slow(const char* p, weight_text& out) const {
  const char* end = field_end(p);
  const std::string_view field(p, static_cast<std::size_t>(end - p));
  const bool negative = field.starts_with('-');
  // from_chars takes no '+'; allow one in front of a number.
  const std::string_view unsigned_part = negative || field.starts_with('+') ? field.substr(1) : field;
  out = weight_text{};
  if (all_digits(unsigned_part)) {
    // An integer that overflowed 32 bits, or a signed one: no fraction, no exponent.
    if (negative && unsigned_part.find_first_not_of('0') != std::string_view::npos)
      fail(p, "negative weight " + token_text(field));
    std::uint64_t value = 0;
    const auto result = std::from_chars(unsigned_part.data(), unsigned_part.data() + unsigned_part.size(), value);
    if (result.ec == std::errc() && value <= std::numeric_limits<std::uint32_t>::max()) {
      out.integer = static_cast<std::uint32_t>(value);
      return end;
    }
    out.too_large = true;
  } else {
    out.is_float = true;
  }
  const std::string_view number = field.starts_with('+') ? field.substr(1) : field;
  float value = 0;
  const auto result = std::from_chars(number.data(), number.data() + number.size(), value, std::chars_format::general);
  const bool parsed = !number.empty() && result.ptr == number.data() + number.size();
  if (!parsed || (result.ec != std::errc() && result.ec != std::errc::result_out_of_range))
    fail(p, "bad weight " + apps::quoted_excerpt(field, 40) + ": expected a non-negative number");
  if (result.ec == std::errc::result_out_of_range && !tiny_float(number, value))
    fail(p, "weight " + token_text(field) + " is too large for a float");
  if (std::isnan(value) || std::isinf(value)) fail(p, "weight " + token_text(field) + " is not a finite number");
  if (negative) {  // only a zero may carry a minus sign, however small the number
    double exact = 0;
    const auto check = std::from_chars(number.data(), number.data() + number.size(), exact);
    if (check.ec != std::errc() || exact != 0) fail(p, "negative weight " + token_text(field));
  }
  out.real = value + 0.0f;  // -0 becomes +0
  return end;
}

}  // namespace bkt::sssp::detail
