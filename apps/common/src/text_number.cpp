// std::from_chars and std::to_chars, with the checks and messages the tools want.
#include "text_number.hpp"

#include <algorithm>
#include <bit>
#include <cfenv>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <system_error>

#include "bkt_apps/app_error.hpp"

namespace bkt::apps::detail {
namespace {

/// Half precision goes through double: from_chars has no 16-bit float.
template <class T>
using parsed_as = std::conditional_t<std::is_same_v<T, __half>, double, T>;

/// The half nearest the decimal `text`, which from_chars read as `value`. Through double, a decimal
/// just off a midpoint between two halves can land on it and then round to even the wrong way;
/// there the decimal itself, read rounding down and up, tells which side of the midpoint it is on.
__half nearest_half(double value, std::string_view text) {
  if (std::isnan(value))  // CUDA's conversion drops a NaN's sign; keep it, as the other floats do
    return std::bit_cast<__half>(static_cast<std::uint16_t>(std::signbit(value) ? 0xfe00 : 0x7e00));
  const __half rounded = __double2half(value);
  const double near = __half2float(rounded);
  if (!std::isfinite(value) || std::isinf(near) || near == value) return rounded;
  // The half on value's other side: the next bit pattern away from zero, or toward it.
  const auto bits = std::bit_cast<std::uint16_t>(rounded);
  const auto step = std::fabs(value) > std::fabs(near) ? bits + 1 : bits - 1;
  const __half other = std::bit_cast<__half>(static_cast<std::uint16_t>(step));
  const double far = __half2float(other);
  if ((near + far) / 2 != value) return rounded;  // not a midpoint: rounding to nearest was right
  const std::string decimal(text);  // strtod needs a terminated string; this rare case may allocate
  const int mode = std::fegetround();
  std::fesetround(FE_DOWNWARD);
  const double down = std::strtod(decimal.c_str(), nullptr);
  std::fesetround(FE_UPWARD);
  const double up = std::strtod(decimal.c_str(), nullptr);
  std::fesetround(mode);
  if (down == up) return rounded;  // the decimal is the midpoint itself: ties go to even
  const double side = down == value ? std::max(near, far) : std::min(near, far);  // above or below it
  return side == near ? rounded : other;
}

template <class T>
std::string parse_as(std::string_view field, void* out) {
  // Built only on the error path: parsing must not allocate.
  const auto quoted = [field] { return quoted_excerpt(field); };
  const auto out_of_range = [&] { return quoted() + " is out of range for " + std::string(dtype_name(dtype_of<T>())); };
  // from_chars takes no '+'; accept one in front of a digit, 'inf' or 'nan'.
  std::string_view text = field;
  if (text.size() > 1 && text[0] == '+' && text[1] != '-' && text[1] != '+') text.remove_prefix(1);
  parsed_as<T> value{};
  std::from_chars_result result{};
  if constexpr (std::is_floating_point_v<parsed_as<T>>) {
    result = std::from_chars(text.data(), text.data() + text.size(), value, std::chars_format::general);
  } else {
    // "-0" (any number of zeros) is zero for an unsigned type too, as the dtype inference counts it.
    if (std::is_unsigned_v<T> && text.size() > 1 && text[0] == '-' &&
        text.find_first_not_of('0', 1) == std::string_view::npos)
      text.remove_prefix(1);
    result = std::from_chars(text.data(), text.data() + text.size(), value, 10);
    // A negative number for an unsigned type, or a fraction: say so rather than "not a number".
    if (result.ec == std::errc::invalid_argument && std::is_unsigned_v<T> && text.size() > 1 && text[0] == '-') {
      long long probe = 0;
      const auto signed_result = std::from_chars(text.data(), text.data() + text.size(), probe, 10);
      if (signed_result.ptr == text.data() + text.size()) return out_of_range();
    }
  }
  if (result.ec == std::errc::result_out_of_range) return out_of_range();
  if (result.ec != std::errc() || result.ptr != text.data() + text.size()) {
    if constexpr (std::is_integral_v<T>)
      if (result.ec == std::errc() && (*result.ptr == '.' || *result.ptr == 'e' || *result.ptr == 'E'))
        return quoted() + " is not an integer (the dtype is " + std::string(dtype_name(dtype_of<T>())) + ")";
    return "not a number: " + quoted();
  }
  if constexpr (std::is_same_v<T, __half>) {
    const __half half = nearest_half(value, text);
    if (std::isinf(__half2float(half)) && std::isfinite(value)) return out_of_range();
    std::memcpy(out, &half, sizeof(half));
  } else {
    std::memcpy(out, &value, sizeof(T));
  }
  return {};
}

template <class T>
void append_as(std::string& text, const void* value) {
  T number;
  std::memcpy(&number, value, sizeof(T));
  char digits[64];
  std::to_chars_result result{};
  if constexpr (std::is_same_v<T, __half>) {
    // The fewest significant digits that read back as the same half (at most 5 for finite values;
    // NaN payloads do not survive text, as with the other floats).
    const double wide = __half2float(number);
    for (int precision = 1; precision <= 5; ++precision) {
      result = std::to_chars(digits, digits + sizeof(digits), wide, std::chars_format::general, precision);
      double back = 0;
      std::from_chars(digits, result.ptr, back, std::chars_format::general);
      const __half again = nearest_half(back, std::string_view(digits, result.ptr));  // as parse_as reads it
      if (std::bit_cast<std::uint16_t>(again) == std::bit_cast<std::uint16_t>(number)) break;
    }
  } else {
    result = std::to_chars(digits, digits + sizeof(digits), number);
  }
  text.append(digits, result.ptr);
}

/// The magnitude of an integer field, as its digits without leading zeros, compared with a
/// limit written the same way: shorter is smaller, equal lengths compare as text.
bool digits_above(std::string_view digits, std::string_view limit) {
  return digits.size() != limit.size() ? digits.size() > limit.size() : digits > limit;
}

}  // namespace

bool column_dtype::add(std::string_view field) {
  seen_ = true;
  if (floating_) return false;
  std::string_view digits = field;
  const bool minus = !digits.empty() && digits.front() == '-';
  if (!digits.empty() && (digits.front() == '-' || digits.front() == '+')) digits.remove_prefix(1);
  const bool integer =
      !digits.empty() && std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (!integer) {
    floating_ = true;
    return false;
  }
  while (digits.size() > 1 && digits.front() == '0') digits.remove_prefix(1);
  const bool zero = digits == "0";  // "-0" is zero, not a negative
  if (minus && !zero) {
    negative_ = true;
    if (digits_above(digits, "9223372036854775808")) floating_ = true;  // below i64's minimum
  } else if (digits_above(digits, "9223372036854775807")) {
    above_i64_ = true;
    if (digits_above(digits, "18446744073709551615")) floating_ = true;  // beyond u64
  }
  if (negative_ && above_i64_) floating_ = true;  // no integer dtype holds both
  return !floating_;
}

dtype column_dtype::type() const {
  if (!seen_ || floating_) return dtype::f64;
  return above_i64_ ? dtype::u64 : dtype::i64;
}

std::string parse_number(std::string_view field, dtype type, void* out) {
  if (field.empty()) return "empty field";
  return visit_dtype(type, [&]<class T>(std::type_identity<T>) { return parse_as<T>(field, out); });
}

void append_number(std::string& text, const void* value, dtype type) {
  visit_dtype(type, [&]<class T>(std::type_identity<T>) { append_as<T>(text, value); });
}

}  // namespace bkt::apps::detail
