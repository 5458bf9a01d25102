// Text input and output: exact integers, correctly rounded floats, columns, comments, and a line
// number in every error.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "bkt_apps/numeric_io.hpp"
#include "bkt_apps_test/temp_dir.hpp"

namespace bkt::apps {
namespace {

class text_io : public test::temp_dir_test {
 protected:
  input_options options_for(const std::string& text, dtype type) {
    input_options options;
    options.path = write_file("in.txt", text);
    options.type = type;
    return options;
  }

  template <class T>
  std::vector<T> read_values(const input_options& options) {
    const numeric_array array = read_array(options);
    const auto values = array.as<T>();
    return {values.begin(), values.end()};
  }
  template <class T>
  std::vector<T> read_values(const std::string& text) {
    return read_values<T>(options_for(text, dtype_of<T>()));
  }

  /// The message without the leading "PATH:".
  std::string error_of(const input_options& options) {
    try {
      read_array(options);
    } catch (const app_error& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.rfind(options.path + ":", 0), 0u) << message;
      return message.substr(options.path.size() + 1);
    }
    return {};
  }
  std::string error_of(const std::string& text, dtype type) { return error_of(options_for(text, type)); }
};

template <class T>
std::uint64_t bits_of(T value) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return bits;
}

TEST_F(text_io, one_number_per_line_with_comments_blank_lines_and_crlf) {
  EXPECT_EQ(read_values<std::int32_t>("1\n\n# a comment\n  # indented\n-2\r\n  3  \n\t\n4"),
            (std::vector<std::int32_t>{1, -2, 3, 4}));
}

TEST_F(text_io, default_dtype_is_f64) {
  input_options options;
  options.path = write_file("in.txt", "0.5\n");
  const numeric_array array = read_array(options);
  EXPECT_EQ(array.type(), dtype::f64);
  EXPECT_EQ(array.as<double>()[0], 0.5);
}

TEST_F(text_io, integers_parse_exactly) {
  EXPECT_EQ(read_values<std::uint64_t>("18446744073709551615\n+7\n"),
            (std::vector<std::uint64_t>{std::numeric_limits<std::uint64_t>::max(), 7}));
  EXPECT_EQ(read_values<std::int64_t>("-9223372036854775808\n9007199254740993\n"),
            (std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::min(), 9007199254740993}));
  EXPECT_EQ(read_values<std::uint8_t>("255\n0\n"), (std::vector<std::uint8_t>{255, 0}));
  EXPECT_EQ(read_values<std::int8_t>("-128\n"), (std::vector<std::int8_t>{-128}));
}

TEST_F(text_io, floats_round_once_to_their_own_type) {
  // Through double this would land on the midpoint and round to 1.0f; read directly it rounds up.
  EXPECT_EQ(read_values<float>("1.0000000596046447755\n")[0], std::nextafter(1.0f, 2.0f));
  EXPECT_EQ(read_values<float>("16777217\n")[0], 16777216.0f);
  const std::vector<double> specials =
      read_values<double>("inf\n-inf\n+inf\nInfinity\nnan\n-nan\n-0.0\n4.9406564584124654e-324\n");
  EXPECT_EQ(specials[0], INFINITY);
  EXPECT_EQ(specials[1], -INFINITY);
  EXPECT_EQ(specials[2], INFINITY);
  EXPECT_EQ(specials[3], INFINITY);
  EXPECT_TRUE(std::isnan(specials[4]) && !std::signbit(specials[4]));
  EXPECT_TRUE(std::isnan(specials[5]) && std::signbit(specials[5]));
  EXPECT_EQ(bits_of(specials[6]), bits_of(-0.0));
  EXPECT_EQ(specials[7], std::numeric_limits<double>::denorm_min());
}

TEST_F(text_io, half_precision_rounds_once_and_prints_the_fewest_digits) {
  const auto halves = [&](const std::string& text) {
    std::vector<std::uint16_t> bits;
    for (const __half value : read_values<__half>(text)) bits.push_back(static_cast<std::uint16_t>(bits_of(value)));
    return bits;
  };
  // 1 + 2^-11 is the midpoint of 1 (0x3c00) and its successor (0x3c01); a decimal a hair above or
  // below it reads as that midpoint in double, but must round to its own side.
  EXPECT_EQ(halves("1.00048828125\n1.00048828125000000001\n1.00048828124999999999\n"),
            (std::vector<std::uint16_t>{0x3c00, 0x3c01, 0x3c00}));
  EXPECT_EQ(halves("0.1\n-0\n65504\n6e-8\ninf\n-nan\n"),
            (std::vector<std::uint16_t>{0x2e66, 0x8000, 0x7bff, 0x0001, 0x7c00, 0xfe00}));
  EXPECT_EQ(error_of("65520\n", dtype::f16), "1: '65520' is out of range for f16");

  std::vector<__half> values;
  for (const std::uint16_t bits : {0x2e66, 0x8000, 0x7bff, 0x0001, 0x3c01, 0x7c00}) values.push_back(std::bit_cast<__half>(bits));
  output_options out;
  out.path = path("halves.txt");
  write_array(out, file_format::text, numeric_array::copy_of<__half>(values));
  EXPECT_EQ(read_file(out.path), "0.1\n-0\n6.55e+04\n6e-08\n1.001\ninf\n");
}

TEST_F(text_io, out_of_range_and_non_numbers_name_the_line) {
  EXPECT_EQ(error_of("1\n2\n300\n", dtype::u8), "3: '300' is out of range for u8");
  EXPECT_EQ(error_of("-1\n", dtype::u32), "1: '-1' is out of range for u32");
  EXPECT_EQ(error_of("9223372036854775808\n", dtype::i64), "1: '9223372036854775808' is out of range for i64");
  EXPECT_EQ(error_of("1e39\n", dtype::f32), "1: '1e39' is out of range for f32");
  EXPECT_EQ(error_of("1e999\n", dtype::f64), "1: '1e999' is out of range for f64");
  EXPECT_EQ(error_of("# header\n\n1.5\n", dtype::i32), "3: '1.5' is not an integer (the dtype is i32)");
  EXPECT_EQ(error_of("1\nabc\n", dtype::f64), "2: not a number: 'abc'");
  EXPECT_EQ(error_of("0x10\n", dtype::i32), "1: not a number: '0x10'");
  EXPECT_EQ(error_of("1.5.2\n", dtype::f64), "1: not a number: '1.5.2'");
  EXPECT_EQ(error_of("--1\n", dtype::i32), "1: not a number: '--1'");
  EXPECT_EQ(error_of("+-1\n", dtype::i32), "1: not a number: '+-1'");
  EXPECT_EQ(error_of("1 2\n", dtype::i32), "1: 2 fields where one number was expected; choose one with --column");
}

TEST_F(text_io, skip_header) {
  input_options options = options_for("value\n1\n2\n", dtype::u16);
  EXPECT_EQ(error_of(options), "1: not a number: 'value'");
  options.skip_header = true;
  EXPECT_EQ(read_values<std::uint16_t>(options), (std::vector<std::uint16_t>{1, 2}));
}

TEST_F(text_io, csv_column) {
  input_options options = options_for("a,b,c\n1,2,3\n4, 5 ,6\n", dtype::i32);
  options.skip_header = true;
  options.column = 2;
  EXPECT_EQ(read_values<std::int32_t>(options), (std::vector<std::int32_t>{2, 5}));
  options.column = 4;
  EXPECT_EQ(error_of(options), "2: no field 4 (the line has 3)");
}

TEST_F(text_io, whitespace_column) {
  input_options options = options_for("a 1 2 3\na 4\t5    6\n", dtype::f64);
  options.column = 4;
  EXPECT_EQ(read_values<double>(options), (std::vector<double>{3, 6}));
  options.column = 1;
  EXPECT_EQ(error_of(options), "1: field 1: not a number: 'a'");
}

TEST_F(text_io, explicit_delimiters) {
  input_options options = options_for("1\t\t3\n", dtype::i32);
  options.delimiter = '\t';
  options.column = 3;
  EXPECT_EQ(read_values<std::int32_t>(options), (std::vector<std::int32_t>{3}));
  options.column = 2;
  EXPECT_EQ(error_of(options), "1: field 2: empty field");
  options = options_for("1;2\n", dtype::i32);
  options.delimiter = ';';
  options.column = 2;
  EXPECT_EQ(read_values<std::int32_t>(options), (std::vector<std::int32_t>{2}));
}

TEST_F(text_io, long_lines_and_chunks) {
  std::string text = std::string(3 << 20, ' ') + "5\n";
  for (int i = 0; i < 10; ++i) text += std::to_string(i) + "\n";
  input_options options = options_for(text, dtype::i32);
  chunk_reader reader(options);
  EXPECT_EQ(reader.total_items(), std::nullopt);
  EXPECT_EQ(reader.format(), file_format::text);
  std::vector<std::int32_t> got;
  for (numeric_array chunk = reader.next(3); !chunk.empty(); chunk = reader.next(3)) {
    const auto part = chunk.as<std::int32_t>();
    got.insert(got.end(), part.begin(), part.end());
  }
  EXPECT_EQ(got, (std::vector<std::int32_t>{5, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
}

TEST_F(text_io, error_line_numbers_count_every_line) {
  input_options options = options_for("h\n1\n\n# c\n2\n\nbad\n", dtype::i32);
  options.skip_header = true;
  EXPECT_EQ(error_of(options), "7: not a number: 'bad'");
}

TEST_F(text_io, float_output_round_trips_bit_for_bit) {
  const std::vector<double> values = {0.1,
                                      -0.0,
                                      1.0 / 3,
                                      INFINITY,
                                      -INFINITY,
                                      4.9406564584124654e-324,
                                      2.2250738585072014e-308,
                                      1.7976931348623157e308,
                                      1e21,
                                      123456789.0};
  output_options out;
  out.path = path("out.txt");
  write_array(out, file_format::text, numeric_array::copy_of<double>(values));
  EXPECT_EQ(read_file(out.path),
            "0.1\n-0\n0.3333333333333333\ninf\n-inf\n5e-324\n2.2250738585072014e-308\n1.7976931348623157e+308\n1e+21\n"
            "123456789\n");
  const std::vector<double> back = read_values<double>(options_for(read_file(out.path), dtype::f64));
  ASSERT_EQ(back.size(), values.size());
  for (std::size_t i = 0; i < values.size(); ++i) EXPECT_EQ(bits_of(back[i]), bits_of(values[i])) << i;
}

TEST_F(text_io, f32_output_is_shortest_for_f32) {
  output_options out;
  out.path = path("out.txt");
  write_array(out, file_format::text,
              numeric_array::copy_of<float>(std::vector<float>{0.1f, -1.5f, 1e-45f, NAN, -NAN}));
  EXPECT_EQ(read_file(out.path), "0.1\n-1.5\n1e-45\nnan\n-nan\n");
}

TEST_F(text_io, integer_output) {
  output_options out;
  out.path = path("out.txt");
  write_array(
      out, file_format::text,
      numeric_array::copy_of<std::int64_t>(std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::min(), 0, 42}));
  EXPECT_EQ(read_file(out.path), "-9223372036854775808\n0\n42\n");
  write_array(out, file_format::text, numeric_array::copy_of<std::int8_t>(std::vector<std::int8_t>{-5, 127}));
  EXPECT_EQ(read_file(out.path), "-5\n127\n");
  write_array(out, file_format::text, numeric_array::copy_of<std::uint8_t>(std::vector<std::uint8_t>{255}));
  EXPECT_EQ(read_file(out.path), "255\n");
}

TEST_F(text_io, empty_input_gives_an_empty_array) {
  EXPECT_TRUE(read_values<double>("").empty());
  EXPECT_TRUE(read_values<double>("# nothing\n\n").empty());
}

}  // namespace
}  // namespace bkt::apps
