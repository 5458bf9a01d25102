// whole_number, number_above, number_at_least: what each option accepts, the value CLI11 then
// stores, and the one-line message for what it refuses (short, with the bound written plainly).
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>

#include "bkt_apps/number_options.hpp"

namespace {

struct outcome {
  bool ok = false;
  std::string message;  // CLI11's what(): "--opt: ..."
};

/// Parses "--opt TEXT" into `value` with `validator`, as the tools attach it (->transform, so that
/// a rewritten text reaches the conversion).
template <class Number>
outcome parse(const CLI::Validator& validator, const std::string& text, Number& value) {
  CLI::App app;
  app.add_option("--opt", value)->transform(validator);
  std::vector<std::string> arguments{text, "--opt"};  // CLI11 takes them in reverse
  try {
    app.parse(arguments);
    return {true, ""};
  } catch (const CLI::ParseError& e) {
    return {false, e.what()};
  }
}

TEST(whole_number, accepts_plain_decimal_and_stores_it) {
  std::int64_t value = -1;
  EXPECT_TRUE(parse(bkt::apps::whole_number(0), "1000", value).ok);
  EXPECT_EQ(value, 1000);
  EXPECT_TRUE(parse(bkt::apps::whole_number(0), "+5", value).ok);
  EXPECT_EQ(value, 5);
  EXPECT_TRUE(parse(bkt::apps::whole_number(0), "0", value).ok);
  EXPECT_EQ(value, 0);
  EXPECT_TRUE(parse(bkt::apps::whole_number(-10), "-7", value).ok);
  EXPECT_EQ(value, -7);
  EXPECT_TRUE(parse(bkt::apps::whole_number(0), "9223372036854775807", value).ok);
  EXPECT_EQ(value, INT64_MAX);
}

TEST(whole_number, leading_zeros_are_decimal_not_octal) {
  // CLI11 alone reads "010" with strtoll base 0: octal 8.
  std::int64_t value = -1;
  EXPECT_TRUE(parse(bkt::apps::whole_number(0), "010", value).ok);
  EXPECT_EQ(value, 10);
  int narrow = -1;
  EXPECT_TRUE(parse(bkt::apps::whole_number(0, 4096), "0012", narrow).ok);
  EXPECT_EQ(narrow, 12);
}

TEST(whole_number, exponent_form_is_refused_with_the_digits_to_write) {
  std::int64_t value = 0;
  const outcome scientific = parse(bkt::apps::whole_number(0), "1e3", value);
  EXPECT_FALSE(scientific.ok);
  EXPECT_EQ(scientific.message, "--opt: '1e3' is not a whole number as written: write 1000");
  EXPECT_EQ(parse(bkt::apps::whole_number(0), "2.0", value).message,
            "--opt: '2.0' is not a whole number as written: write 2");
  EXPECT_EQ(parse(bkt::apps::whole_number(0), "2.5", value).message, "--opt: '2.5' is not a whole number");
  EXPECT_EQ(parse(bkt::apps::whole_number(0), "0x10", value).message, "--opt: '0x10' is not a whole number");
  EXPECT_EQ(parse(bkt::apps::whole_number(0), "ten", value).message, "--opt: 'ten' is not a whole number");
  EXPECT_EQ(parse(bkt::apps::whole_number(0), "-", value).message, "--opt: '-' is not a whole number");
  EXPECT_EQ(parse(bkt::apps::whole_number(0), "nan", value).message, "--opt: 'nan' is not a whole number");
  EXPECT_EQ(parse(bkt::apps::whole_number(0), " 5", value).message, "--opt: ' 5' is not a whole number");
}

TEST(whole_number, bounds_are_written_plainly) {
  std::int64_t value = 0;
  EXPECT_EQ(parse(bkt::apps::whole_number(0), "-1", value).message, "--opt: '-1' must be >= 0");
  EXPECT_EQ(parse(bkt::apps::whole_number(1), "0", value).message, "--opt: '0' must be >= 1");
  EXPECT_EQ(parse(bkt::apps::whole_number(1, std::int64_t{1} << 24), "16777217", value).message,
            "--opt: '16777217' must be from 1 to 16777216");
  EXPECT_EQ(parse(bkt::apps::whole_number(0), "99999999999999999999", value).message,
            "--opt: '99999999999999999999' is out of range (must be >= 0)");
  EXPECT_EQ(parse(bkt::apps::whole_number(0), "-99999999999999999999", value).message,
            "--opt: '-99999999999999999999' is out of range (must be >= 0)");
}

TEST(whole_number, echoed_bytes_are_escaped) {
  std::int64_t value = 0;
  EXPECT_EQ(parse(bkt::apps::whole_number(0), "1\x1b[2J", value).message,
            "--opt: '1\\x1b[2J' is not a whole number");
}

TEST(number_above, refuses_the_bound_nan_and_infinity_in_short_messages) {
  double value = 0;
  const outcome negative = parse(bkt::apps::number_above(0), "-3", value);
  EXPECT_FALSE(negative.ok);
  EXPECT_EQ(negative.message, "--opt: '-3' must be > 0");  // CLI11's Range: a 309-digit bound
  EXPECT_EQ(parse(bkt::apps::number_above(0), "0", value).message, "--opt: '0' must be > 0");
  EXPECT_EQ(parse(bkt::apps::number_above(0), "-0", value).message, "--opt: '-0' must be > 0");
  EXPECT_EQ(parse(bkt::apps::number_above(0), "nan", value).message, "--opt: 'nan' is not a finite number (must be > 0)");
  EXPECT_EQ(parse(bkt::apps::number_above(0), "inf", value).message, "--opt: 'inf' is not a finite number (must be > 0)");
  EXPECT_EQ(parse(bkt::apps::number_above(0.1), "0.1", value).message, "--opt: '0.1' must be > 0.1");
  EXPECT_EQ(parse(bkt::apps::number_above(0), "3 sigma", value).message, "--opt: '3 sigma' is not a number");
}

TEST(number_above, accepts_positive_numbers_in_any_decimal_form) {
  double value = 0;
  EXPECT_TRUE(parse(bkt::apps::number_above(0), "2.5", value).ok);
  EXPECT_EQ(value, 2.5);
  EXPECT_TRUE(parse(bkt::apps::number_above(0), "+1e-3", value).ok);
  EXPECT_EQ(value, 1e-3);
  EXPECT_TRUE(parse(bkt::apps::number_above(0), "5e-324", value).ok);  // a denormal is still > 0
  EXPECT_GT(value, 0);
}

TEST(number_at_least, takes_the_bound_itself) {
  double value = 1;
  EXPECT_TRUE(parse(bkt::apps::number_at_least(0), "0", value).ok);
  EXPECT_EQ(value, 0);
  EXPECT_TRUE(parse(bkt::apps::number_at_least(0), "-0", value).ok);
  EXPECT_EQ(parse(bkt::apps::number_at_least(0), "-1e-9", value).message, "--opt: '-1e-9' must be >= 0");
  EXPECT_EQ(parse(bkt::apps::number_at_least(0), "-inf", value).message,
            "--opt: '-inf' is not a finite number (must be >= 0)");
}

TEST(number_options, help_shows_the_type_name_alone) {
  CLI::App app;
  std::int64_t count = 0;
  double level = 0;
  app.add_option("--count", count)->type_name("N")->transform(bkt::apps::whole_number(1));
  app.add_option("--level", level)->type_name("SIGMA")->check(bkt::apps::number_above(0));
  const std::string help = app.help();
  EXPECT_NE(help.find("--count N"), std::string::npos) << help;
  EXPECT_NE(help.find("--level SIGMA"), std::string::npos) << help;
  EXPECT_EQ(help.find("POSITIVE"), std::string::npos) << help;
}

}  // namespace
