// Each input format in and out, compared byte for byte with what the test computes.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>

#include "expected.hpp"
#include "tool_fixture.hpp"

namespace bkt::radixsort::test {
namespace {

using formats = tool_test;

/// Floats whose text form reads back to the same bits (text keeps a NaN's sign, not its payload).
std::vector<double> text_safe_doubles() {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> values = {
      2.5,     -0.0,  0.0,     nan, -nan, INFINITY, -INFINITY, 4.9406564584124654e-324, -2.2250738585072009e-308,
      1.0 / 3, 1e300, -1e-300, 2.5, -0.0, 0.1,      7};
  for (int i = 0; i < 200; ++i) values.push_back(std::ldexp(double(i % 17) - 8, i % 9 - 4));
  return values;
}

TEST_F(formats, raw_little_endian) {
  const auto values = adversarial_values<std::uint32_t>(5000, 1);
  const std::string input = write("in.bin", raw_bytes(values));
  const tool_result result = run({input, "--dtype", "u32", "-o", path("out.bin")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err, "");
  EXPECT_EQ(read_file(path("out.bin")), raw_bytes(gather(values, expected_positions(values))));
  EXPECT_EQ(entries(), (std::vector<std::string>{"in.bin", "out.bin"}));
}

TEST_F(formats, raw_big_endian_in_and_out) {
  const auto values = adversarial_values<std::int16_t>(3000, 2);
  const std::string input = write("in.raw", raw_bytes(values, true));
  const tool_result result = run({input, "--dtype", "int16", "--endian", "big", "-o", path("out.raw")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(read_file(path("out.raw")), raw_bytes(gather(values, expected_positions(values)), true));
}

TEST_F(formats, raw_floats_keep_every_bit) {
  const auto values = adversarial_values<float>(4000, 3);
  const std::string input = write("in.f32", raw_bytes(values));
  const tool_result result = run({input, "--dtype", "f32", "-o", path("out.f32")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(read_file(path("out.f32")), raw_bytes(gather(values, expected_positions(values))));
}

TEST_F(formats, npy_1d) {
  const auto values = adversarial_values<double>(3000, 4);
  const std::string input = write("in.npy", npy_1d(values));
  const tool_result result = run({input, "-o", path("out.npy")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(read_file(path("out.npy")), npy_1d(gather(values, expected_positions(values))));
}

TEST_F(formats, npy_big_endian_input_writes_machine_order) {
  const auto values = adversarial_values<std::uint64_t>(500, 5);
  const std::string input = write("in.npy", npy_file(">u8", "(500,)", raw_bytes(values, true)));
  const tool_result result = run({input, "-o", path("out.npy")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(read_file(path("out.npy")), npy_1d(gather(values, expected_positions(values))));
}

TEST_F(formats, npy_2d_column) {
  std::vector<std::int32_t> matrix, column;
  const auto values = adversarial_values<std::int32_t>(700, 6);
  for (std::size_t r = 0; r < values.size(); ++r) {
    matrix.insert(matrix.end(), {static_cast<std::int32_t>(r), values[r], -1});
    column.push_back(values[r]);
  }
  const std::string input = write("in.npy", npy_file("<i4", "(700, 3)", raw_bytes(matrix)));
  const tool_result result = run({input, "--column", "2", "-o", path("out.npy")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(read_file(path("out.npy")), npy_1d(gather(column, expected_positions(column))));
}

TEST_F(formats, text_floats) {
  const auto values = text_safe_doubles();
  const std::string input = write("in.txt", "# measurements\n" + text_lines(values) + "\n");
  const tool_result result = run({input, "-o", path("out.txt")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(read_file(path("out.txt")), text_lines(gather(values, expected_positions(values))));
}

TEST_F(formats, text_integers_exactly) {
  const std::vector<std::int64_t> values = {9007199254740993,
                                            9007199254740992,
                                            std::numeric_limits<std::int64_t>::min(),
                                            std::numeric_limits<std::int64_t>::max(),
                                            -1,
                                            0};
  const std::string input = write("in.txt", text_lines(values));
  const tool_result result = run({input, "--dtype", "i64", "-o", path("out.txt")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(read_file(path("out.txt")), text_lines(gather(values, expected_positions(values))));
}

TEST_F(formats, csv_column_with_header) {
  std::string csv = "id,metres,name\n";
  const auto values = adversarial_values<std::uint16_t>(400, 7);
  for (std::size_t i = 0; i < values.size(); ++i) csv += std::to_string(i) + "," + std::to_string(values[i]) + ",x\n";
  const std::string input = write("in.csv", csv);
  const tool_result result = run({input, "--skip-header", "--column", "2", "--dtype", "u16", "-o", path("out.csv")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(read_file(path("out.csv")), text_lines(gather(values, expected_positions(values))));
}

TEST_F(formats, stdin_to_stdout_text) {
  const auto values = text_safe_doubles();
  const std::string input = write("in", text_lines(values));
  const tool_result result = run({}, input);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, text_lines(gather(values, expected_positions(values))));
  const tool_result dash = run({"-", "-o", "-"}, input);
  EXPECT_EQ(dash.out, result.out);
}

TEST_F(formats, stdin_to_stdout_npy) {
  const auto values = adversarial_values<std::int8_t>(1000, 8);
  const std::string input = write("in", npy_1d(values));
  const tool_result result = run({}, input);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, npy_1d(gather(values, expected_positions(values))));
}

TEST_F(formats, stdin_raw_needs_format_raw) {
  const auto values = adversarial_values<std::uint32_t>(100, 9);
  const std::string input = write("in", raw_bytes(values));
  const tool_result result = run({"--format", "raw", "--dtype", "u32"}, input);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, raw_bytes(gather(values, expected_positions(values))));
}

TEST_F(formats, output_format_from_extension_and_flag) {
  const std::vector<std::uint32_t> values = {5, 3, 9, 3};
  const std::string input = write("in.txt", text_lines(values));
  ASSERT_EQ(run({input, "--dtype", "u32", "-o", path("out.npy")}).exit_code, 0);
  EXPECT_EQ(read_file(path("out.npy")), npy_1d(std::vector<std::uint32_t>{3, 3, 5, 9}));
  ASSERT_EQ(run({input, "--dtype", "u32", "--output-format", "raw", "-o", path("out.txt")}).exit_code, 0);
  EXPECT_EQ(read_file(path("out.txt")), raw_bytes(std::vector<std::uint32_t>{3, 3, 5, 9}));
  ASSERT_EQ(
      run({input, "--dtype", "u32", "--output-format", "raw", "--endian", "big", "-o", path("big.bin")}).exit_code, 0);
  EXPECT_EQ(read_file(path("big.bin")), raw_bytes(std::vector<std::uint32_t>{3, 3, 5, 9}, true));
}

TEST_F(formats, every_dtype_through_raw) {
  const auto check = [&]<class T>(const std::string& name) {
    const auto values = adversarial_values<T>(2000, 10);
    const std::string input = write("in." + name, raw_bytes(values));
    const tool_result result = run({input, "--dtype", name, "-o", path("out." + name)});
    ASSERT_EQ(result.exit_code, 0) << name << ": " << result.err;
    EXPECT_EQ(read_file(path("out." + name)), raw_bytes(gather(values, expected_positions(values)))) << name;
  };
  check.operator()<std::uint8_t>("u8");
  check.operator()<std::uint16_t>("u16");
  check.operator()<std::uint64_t>("u64");
  check.operator()<std::int8_t>("i8");
  check.operator()<std::int32_t>("i32");
  check.operator()<std::int64_t>("i64");
  check.operator()<double>("f64");
}

TEST_F(formats, half_precision_in_the_float_order) {
  // Random 16-bit patterns (every NaN, infinity, denormal and zero among them in proportion), plus
  // each edge twice.
  std::vector<std::uint16_t> bits = {0x8000, 0x0000, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x0001, 0x8001, 0x7bff, 0xfbff};
  bits.insert(bits.end(), bits.begin(), bits.end());
  std::mt19937 rng(7);
  for (int i = 0; i < 3000; ++i) bits.push_back(static_cast<std::uint16_t>(rng()));
  std::vector<__half> values;
  for (const std::uint16_t b : bits) values.push_back(std::bit_cast<__half>(b));

  const std::string raw = write("in.f16", raw_bytes(values));
  const tool_result result = run({raw, "--dtype", "f16", "-o", path("out.f16")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(read_file(path("out.f16")), raw_bytes(gather(values, expected_positions(values))));

  ASSERT_EQ(run({write("in.npy", npy_1d(values)), "--descending", "-o", path("out.npy")}).exit_code, 0);
  EXPECT_EQ(read_file(path("out.npy")), npy_1d(gather(values, expected_positions(values, {.descending = true}))));

  const tool_result text = run({write("in.txt", "3.5\n-0\n0.1\n-inf\nnan\n1e-7\n-2.25\n0\n"), "--dtype", "f16"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.out, "-inf\n-2.25\n-0\n0\n1e-07\n0.1\n3.5\nnan\n");
}

TEST_F(formats, empty_inputs) {
  const std::string input = write("empty.bin", "");
  ASSERT_EQ(run({input, "--dtype", "f32", "-o", path("out.npy")}).exit_code, 0);
  EXPECT_EQ(read_file(path("out.npy")), npy_1d(std::vector<float>{}));
  const tool_result text = run({write("empty.txt", "# nothing here\n")});
  EXPECT_EQ(text.exit_code, 0);
  EXPECT_EQ(text.out, "");
}

TEST_F(formats, bundled_data_files) {
  const std::string data = BKT_DATA_DIR;
  const tool_result lengths = run({data + "/rome99-arc-lengths.txt", "--dtype", "u32"});
  ASSERT_EQ(lengths.exit_code, 0) << lengths.err;
  EXPECT_EQ(std::count(lengths.out.begin(), lengths.out.end(), '\n'), 4444);
  const tool_result csv = run({data + "/rome99-arcs.csv", "--skip-header", "--column", "3", "--dtype", "u32"});
  EXPECT_EQ(csv.out, lengths.out);
  const tool_result degrees = run({data + "/facebook-degrees.npy", "--output-format", "text", "--descending"});
  ASSERT_EQ(degrees.exit_code, 0) << degrees.err;
  EXPECT_EQ(degrees.out.substr(0, 5), "1045\n");  // the best-connected vertex
  EXPECT_EQ(std::count(degrees.out.begin(), degrees.out.end(), '\n'), 4039);
}

}  // namespace
}  // namespace bkt::radixsort::test
