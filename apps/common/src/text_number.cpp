// std::from_chars and std::to_chars, with the checks and messages the tools want.
#include "text_number.hpp"

#include <charconv>
#include <cstring>
#include <system_error>

namespace bkt::apps::detail {
namespace {

template <class T>
std::string parse_as(std::string_view field, void* out) {
  // Built only on the error path: parsing must not allocate.
  const auto quoted = [field] {
    std::string text(1, '\'');
    text.append(field);
    text.push_back('\'');
    return text;
  };
  const auto out_of_range = [&] { return quoted() + " is out of range for " + std::string(dtype_name(dtype_of<T>())); };
  // from_chars takes no '+'; accept one in front of a digit, 'inf' or 'nan'.
  std::string_view text = field;
  if (text.size() > 1 && text[0] == '+' && text[1] != '-' && text[1] != '+') text.remove_prefix(1);
  T value{};
  std::from_chars_result result{};
  if constexpr (std::is_floating_point_v<T>) {
    result = std::from_chars(text.data(), text.data() + text.size(), value, std::chars_format::general);
  } else {
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
  std::memcpy(out, &value, sizeof(T));
  return {};
}

template <class T>
void append_as(std::string& text, const void* value) {
  T number;
  std::memcpy(&number, value, sizeof(T));
  char digits[64];
  const auto result = std::to_chars(digits, digits + sizeof(digits), number);
  text.append(digits, result.ptr);
}

}  // namespace

std::string parse_number(std::string_view field, dtype type, void* out) {
  if (field.empty()) return "empty field";
  return visit_dtype(type, [&]<class T>(std::type_identity<T>) { return parse_as<T>(field, out); });
}

void append_number(std::string& text, const void* value, dtype type) {
  visit_dtype(type, [&]<class T>(std::type_identity<T>) { append_as<T>(text, value); });
}

}  // namespace bkt::apps::detail
