// Number-option validators: parse the text the way the option will be read, and say what bound
// was missed in the bound's own words.
#include "bkt_apps/number_options.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

#include "bkt_apps/app_error.hpp"

namespace bkt::apps {
namespace {

/// A validator with an empty description, so that --help shows the option's type name alone.
CLI::Validator quiet_validator(std::function<std::string(std::string&)> test) {
  return CLI::Validator(std::move(test), "");
}

/// `text` without a leading '+' before a digit or point (from_chars takes a '-' but not a '+').
std::string_view without_plus(std::string_view text) {
  if (text.size() > 1 && text.front() == '+' && (std::isdigit(static_cast<unsigned char>(text[1])) || text[1] == '.'))
    text.remove_prefix(1);
  return text;
}

std::optional<double> parse_real(std::string_view text) {
  text = without_plus(text);
  double value = 0;
  const auto [end, code] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || code != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::string format_bound(double bound) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", bound);
  // The shortest form that reads back the same: 0.1 rather than 0.10000000000000001.
  for (int digits = 1; digits < 17; ++digits) {
    char shorter[32];
    std::snprintf(shorter, sizeof shorter, "%.*g", digits, bound);
    if (std::strtod(shorter, nullptr) == bound) return shorter;
  }
  return text;
}

/// Why `text` is not a whole number: with the digits to write when it is one in another form.
std::string not_whole(const std::string& text) {
  const auto real = parse_real(text);
  if (real && std::isfinite(*real) && std::trunc(*real) == *real && std::fabs(*real) < 9.2e18) {
    char written[32];
    std::snprintf(written, sizeof written, "%.0f", *real);
    return quoted_excerpt(text) + " is not a whole number as written: write " + written;
  }
  return quoted_excerpt(text) + " is not a whole number";
}

CLI::Validator real_bound(double bound, bool inclusive) {
  return quiet_validator([bound, inclusive](std::string& text) -> std::string {
    const auto value = parse_real(text);
    if (!value) return quoted_excerpt(text) + " is not a number";
    const std::string rule = std::string(inclusive ? "must be >= " : "must be > ") + format_bound(bound);
    if (!std::isfinite(*value)) return quoted_excerpt(text) + " is not a finite number (" + rule + ")";
    if (inclusive ? !(*value >= bound) : !(*value > bound)) return quoted_excerpt(text) + " " + rule;
    return std::string();
  });
}

}  // namespace

CLI::Validator whole_number(std::int64_t low, std::int64_t high) {
  return quiet_validator([low, high](std::string& text) -> std::string {
    const std::string rule = high == std::numeric_limits<std::int64_t>::max()
                                 ? "must be >= " + std::to_string(low)
                                 : "must be from " + std::to_string(low) + " to " + std::to_string(high);
    const std::string_view digits = without_plus(text);
    const bool only_digits = !digits.empty() && digits.find_first_not_of("0123456789", digits.front() == '-') ==
                                                    std::string_view::npos && digits != "-";
    if (!only_digits) return not_whole(text);
    std::int64_t value = 0;
    const auto [end, code] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (code == std::errc::result_out_of_range) return quoted_excerpt(text) + " is out of range (" + rule + ")";
    if (code != std::errc{} || end != digits.data() + digits.size()) return not_whole(text);
    if (value < low || value > high) return quoted_excerpt(text) + " " + rule;
    text = std::to_string(value);  // what CLI11 converts next: no leading zeros to read as octal
    return std::string();
  });
}

CLI::Validator number_above(double bound) { return real_bound(bound, false); }

CLI::Validator number_at_least(double bound) { return real_bound(bound, true); }

}  // namespace bkt::apps
