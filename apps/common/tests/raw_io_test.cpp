// Raw input and output: both byte orders, whole files and chunks, and every malformed case.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "bkt_apps/numeric_io.hpp"
#include "bkt_apps_test/bytes.hpp"
#include "bkt_apps_test/temp_dir.hpp"

namespace bkt::apps {
namespace {

using raw_io = test::temp_dir_test;

TEST_F(raw_io, reads_little_endian) {
  const std::vector<std::uint32_t> values = {3, 1, 0xdeadbeef, 7};
  input_options options;
  options.path = write_file("a.bin", test::bytes_of(values));
  options.type = dtype::u32;
  const numeric_array array = read_array(options);
  EXPECT_EQ(array.type(), dtype::u32);
  const auto got = array.as<std::uint32_t>();
  EXPECT_EQ(std::vector<std::uint32_t>(got.begin(), got.end()), values);
}

TEST_F(raw_io, reads_big_endian) {
  const std::vector<double> values = {1.5, -0.0, 1e300};
  input_options options;
  options.path = write_file("a.raw", test::swapped_bytes_of(values));
  options.type = dtype::f64;
  options.order = byte_order::big;
  const numeric_array array = read_array(options);
  const auto got = array.as<double>();
  EXPECT_EQ(std::vector<double>(got.begin(), got.end()), values);
  EXPECT_TRUE(std::signbit(got[1]));
}

TEST_F(raw_io, chunks_cover_the_file_in_order) {
  std::vector<std::int16_t> values(1000);
  for (int i = 0; i < 1000; ++i) values[i] = static_cast<std::int16_t>(i * 37 - 500);
  input_options options;
  options.path = write_file("a.bin", test::bytes_of(values));
  options.type = dtype::i16;
  chunk_reader reader(options);
  EXPECT_EQ(reader.total_items(), 1000);
  EXPECT_EQ(reader.format(), file_format::raw);
  std::vector<std::int16_t> got;
  for (numeric_array chunk = reader.next(77); !chunk.empty(); chunk = reader.next(77)) {
    EXPECT_LE(chunk.size(), 77);
    const auto part = chunk.as<std::int16_t>();
    got.insert(got.end(), part.begin(), part.end());
  }
  EXPECT_EQ(got, values);
  EXPECT_EQ(reader.items_read(), 1000);
  EXPECT_TRUE(reader.next(5).empty());
}

TEST_F(raw_io, read_into_typed_span) {
  input_options options;
  options.path = write_file("a.bin", test::bytes_of(std::vector<std::uint8_t>{9, 8, 7}));
  options.type = dtype::u8;
  chunk_reader reader(options);
  std::vector<std::uint8_t> buffer(2);
  EXPECT_EQ(reader.read_into(std::span<std::uint8_t>(buffer)), 2);
  EXPECT_EQ(buffer[1], 8);
  EXPECT_EQ(reader.read_into(std::span<std::uint8_t>(buffer)), 1);
  EXPECT_EQ(buffer[0], 7);
  std::vector<float> wrong(1);
  EXPECT_THROW(reader.read_into(std::span<float>(wrong)), std::logic_error);
}

TEST_F(raw_io, empty_file_is_an_empty_array) {
  input_options options;
  options.path = write_file("empty.bin", "");
  options.type = dtype::f32;
  EXPECT_TRUE(read_array(options).empty());
}

TEST_F(raw_io, size_not_a_multiple_of_the_element) {
  input_options options;
  options.path = write_file("odd.bin", std::string(10, 'x'));
  options.type = dtype::u32;
  try {
    read_array(options);
    FAIL() << "no error";
  } catch (const app_error& e) {
    EXPECT_EQ(std::string(e.what()), options.path + ": 10 bytes is not a whole number of u32 elements (4 bytes each)");
    EXPECT_EQ(e.code(), exit_bad_input);
  }
}

TEST_F(raw_io, needs_a_dtype) {
  input_options options;
  options.path = write_file("a.bin", "abcd");
  try {
    read_array(options);
    FAIL() << "no error";
  } catch (const app_error& e) {
    EXPECT_NE(std::string(e.what()).find("raw input needs --dtype"), std::string::npos);
    EXPECT_EQ(e.code(), exit_usage);
  }
}

TEST_F(raw_io, unknown_extension_means_raw_and_npy_extension_means_npy) {
  input_options options;
  options.path = write_file("a.dat", test::bytes_of(std::vector<std::uint16_t>{1, 2}));
  options.type = dtype::u16;
  EXPECT_EQ(chunk_reader(options).format(), file_format::raw);
  options.path = write_file("a.npy", "not really");
  EXPECT_THROW(chunk_reader{options}, app_error);
  options.format = file_format::raw;  // --format wins over the extension
  EXPECT_EQ(chunk_reader(options).format(), file_format::raw);
}

TEST_F(raw_io, missing_file_and_directory) {
  input_options options;
  options.type = dtype::u8;
  options.path = path("missing.bin");
  try {
    chunk_reader reader(options);
    FAIL() << "no error";
  } catch (const app_error& e) {
    EXPECT_EQ(std::string(e.what()), options.path + ": cannot open: No such file or directory");
  }
  options.path = dir_.string();
  EXPECT_THROW(chunk_reader{options}, app_error);
}

TEST_F(raw_io, writes_both_byte_orders) {
  const std::vector<std::uint32_t> values = {1, 0x01020304};
  output_options options;
  options.path = path("little.bin");
  write_array(options, file_format::raw, numeric_array::copy_of<std::uint32_t>(values));
  EXPECT_EQ(read_file(options.path), test::bytes_of(values));
  options.path = path("big.bin");
  options.order = byte_order::big;
  write_array(options, file_format::raw, numeric_array::copy_of<std::uint32_t>(values));
  EXPECT_EQ(read_file(options.path), test::swapped_bytes_of(values));
}

TEST_F(raw_io, writer_checks_the_count_it_announced) {
  output_options options;
  options.path = path("short.bin");
  {
    array_writer writer(options, file_format::raw, dtype::u8, 3);
    writer.write(std::span<const std::uint8_t>(std::vector<std::uint8_t>{1, 2}));
    EXPECT_THROW(writer.finish(), app_error);
  }
  EXPECT_TRUE(entries().empty());  // neither the output nor its temporary
}

TEST_F(raw_io, writer_refuses_another_dtype) {
  output_options options;
  options.path = path("a.bin");
  array_writer writer(options, file_format::raw, dtype::u8);
  EXPECT_THROW(writer.write(std::span<const float>(std::vector<float>{1})), std::logic_error);
}

}  // namespace
}  // namespace bkt::apps
