// Each input format and element type, counted exactly: raw (both byte orders), .npy (1-D and a
// column of 2-D), text and CSV, standard input, 64-bit integers through f64.
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "expected.hpp"
#include "test_files.hpp"
#include "tool_fixture.hpp"

namespace histogram_test {
namespace {

class formats : public tool_test {};

/// Values from a fixed LCG, spread over [-60, 140) so that some fall outside [0, 100).
template <class T>
std::vector<T> sample(std::size_t count) {
  std::vector<T> values(count);
  std::uint64_t state = 12345;
  for (auto& value : values) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    const double unit = static_cast<double>(state >> 11) / 9007199254740992.0;
    if constexpr (std::is_floating_point_v<T>)
      value = static_cast<T>(-60.0 + 200.0 * unit);
    else if constexpr (std::is_signed_v<T>)
      value = static_cast<T>(std::llround(-60.0 + 200.0 * unit));
    else
      value = static_cast<T>(std::llround(200.0 * unit));
  }
  return values;
}

TEST_F(formats, raw_f32_little_endian) {
  auto values = sample<float>(1000);
  values[3] = std::numeric_limits<float>::quiet_NaN();
  values[4] = std::numeric_limits<float>::infinity();
  values[5] = -std::numeric_limits<float>::infinity();
  values[6] = 100.0f;  // the upper end is outside: [lo, hi)
  values[7] = 0.0f;
  write_raw<float>(path("data.f32"), values);
  const auto got = run_json({path("data.f32"), "--dtype", "f32", "--bins", "7", "--range", "0:100"});
  expect_matches(got, expect_even<float>(values, 0.0f, 100.0f, 7));
  EXPECT_EQ(got["dtype"], "f32");
  EXPECT_EQ(got["binned_as"], "f32");
  EXPECT_EQ(got["totals"]["elements"], 1000);
  EXPECT_EQ(got["outside"]["nan"], 1);
}

TEST_F(formats, raw_i16_big_endian) {
  const auto values = sample<std::int16_t>(777);
  write_raw<std::int16_t>(path("data.be"), values, true);
  const auto got = run_json({path("data.be"), "--dtype", "i16", "--endian", "big", "--bins", "13", "--range=-50:120"});
  expect_matches(got, expect_even<std::int16_t>(values, -50, 120, 13));
  EXPECT_EQ(got["binned_as"], "i16");
}

TEST_F(formats, raw_u8_all_256_values) {
  std::vector<std::uint8_t> values;
  for (int repeat = 0; repeat < 3; ++repeat)
    for (int value = 0; value < 256; ++value) values.push_back(static_cast<std::uint8_t>(value));
  write_raw<std::uint8_t>(path("bytes.raw"), values);
  const auto got = run_json({path("bytes.raw"), "--dtype", "u8", "--bins", "256", "--range", "0:256"});
  expect_matches(got, expect_even<std::uint8_t>(values, 0, 256, 256));
  for (int bin = 0; bin < 256; ++bin) EXPECT_EQ(got["counts"][bin], 3);
}

TEST_F(formats, npy_f64_one_dimensional) {
  const auto values = sample<double>(2000);
  write_npy<double>(path("data.npy"), values);
  const auto got = run_json({path("data.npy"), "--bins", "9", "--range", "-10.5:77.25"});
  expect_matches(got, expect_even<double>(values, -10.5, 77.25, 9));
  EXPECT_EQ(got["dtype"], "f64");
}

TEST_F(formats, npy_column_of_two_dimensional) {
  const auto all = sample<std::int32_t>(300);  // 100 rows of 3
  std::vector<std::int32_t> middle;
  for (std::size_t row = 0; row < 100; ++row) middle.push_back(all[row * 3 + 1]);
  write_npy<std::int32_t>(path("table.npy"), all, 3);
  const auto got = run_json({path("table.npy"), "--column", "2", "--bins", "10", "--range", "0:100"});
  expect_matches(got, expect_even<std::int32_t>(middle, 0, 100, 10));
  EXPECT_EQ(got["totals"]["elements"], 100);
}

TEST_F(formats, text_one_value_per_line) {
  const auto values = sample<double>(500);
  write_file(path("data.txt"), "# a comment\n\n" + text_lines<double>(values));
  const auto got = run_json({path("data.txt"), "--bins", "20", "--range", "0:100"});
  expect_matches(got, expect_even<double>(values, 0.0, 100.0, 20));
}

TEST_F(formats, csv_column_with_header) {
  const auto values = sample<float>(200);
  std::string csv = "id,value,label\n";
  for (std::size_t index = 0; index < values.size(); ++index)
    csv += std::to_string(index) + "," + number_text(values[index]) + ",x\n";
  write_file(path("data.csv"), csv);
  const auto got =
      run_json({path("data.csv"), "--column", "2", "--skip-header", "--dtype", "f32", "--bins", "5", "--range", "0:100"});
  expect_matches(got, expect_even<float>(values, 0.0f, 100.0f, 5));
}

TEST_F(formats, text_on_standard_input) {
  const auto values = sample<std::int32_t>(321);
  const auto got = run_json({"--dtype", "i32", "--bins", "4", "--range", "0:100"}, text_lines<std::int32_t>(values));
  expect_matches(got, expect_even<std::int32_t>(values, 0, 100, 4));
  EXPECT_EQ(got["input"], "-");
}

TEST_F(formats, npy_on_standard_input) {
  const auto values = sample<std::uint16_t>(400);
  const auto got = run_json({"-", "--bins", "8", "--range", "0:200"}, npy_bytes<std::uint16_t>(values));
  expect_matches(got, expect_even<std::uint16_t>(values, 0, 200, 8));
  EXPECT_EQ(got["dtype"], "u16");
}

TEST_F(formats, every_library_type_raw) {
  auto check = [&]<class T>(const char* name, T lo, T hi) {
    SCOPED_TRACE(name);
    const auto values = sample<T>(333);
    write_raw<T>(path(std::string("data.") + name), values);
    const auto got = run_json({path(std::string("data.") + name), "--dtype", name, "--bins", "6", "--range",
                               std::to_string(lo) + ":" + std::to_string(hi)});
    expect_matches(got, expect_even<T>(values, lo, hi, 6));
    EXPECT_EQ(got["binned_as"], name);
  };
  check.operator()<std::int8_t>("i8", 0, 100);
  check.operator()<std::uint8_t>("u8", 0, 100);
  check.operator()<std::int16_t>("i16", 0, 100);
  check.operator()<std::uint16_t>("u16", 0, 100);
  check.operator()<std::int32_t>("i32", 0, 100);
  check.operator()<std::uint32_t>("u32", 0, 100);
  check.operator()<float>("f32", 0, 100);
  check.operator()<double>("f64", 0, 100);
}

TEST_F(formats, sixty_four_bit_integers_bin_as_f64) {
  std::vector<std::int64_t> values = {-5, 0, 1, 2, 3, 99, 100, 9007199254740992ll};
  write_raw<std::int64_t>(path("data.i64"), values);
  const auto got = run_json({path("data.i64"), "--dtype", "i64", "--bins", "4", "--range", "0:100"});
  std::vector<double> as_double(values.begin(), values.end());
  expect_matches(got, expect_even<double>(as_double, 0.0, 100.0, 4));
  EXPECT_EQ(got["dtype"], "i64");
  EXPECT_EQ(got["binned_as"], "f64");

  std::vector<std::uint64_t> unsigned_values = {1, 2, 3, 50};
  write_npy<std::uint64_t>(path("data.npy"), unsigned_values);
  const auto unsigned_got = run_json({path("data.npy"), "--bins", "2", "--range", "0:100"});
  EXPECT_EQ(unsigned_got["counts"], nlohmann::json::array({3, 1}));
}

TEST_F(formats, half_precision_bins_as_f64) {
  // 0, 0.5, 1, 99.94 (the half below 100), 100, -2, +inf, NaN, as IEEE half bit patterns.
  const std::vector<std::uint16_t> halves = {0x0000, 0x3800, 0x3c00, 0x563f, 0x5640, 0xc000, 0x7c00, 0x7e00};
  const std::vector<double> as_double = {0.0, 0.5, 1.0, 99.9375, 100.0, -2.0, HUGE_VAL, NAN};
  write_raw<std::uint16_t>(path("data.f16"), halves);
  const auto got = run_json({path("data.f16"), "--dtype", "f16", "--bins", "4", "--range", "0:100"});
  expect_matches(got, expect_even<double>(as_double, 0.0, 100.0, 4));
  EXPECT_EQ(got["dtype"], "f16");
  EXPECT_EQ(got["binned_as"], "f64");
  EXPECT_EQ(got["outside"]["nan"], 1);
}

}  // namespace
}  // namespace histogram_test
