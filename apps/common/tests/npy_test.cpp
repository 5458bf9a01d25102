// .npy input and output: header versions and variants, byte orders, 2-D columns, and every
// header or data problem the reader must refuse with a clear message.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "bkt_apps/numeric_io.hpp"
#include "npy_header.hpp"
#include "bkt_apps_test/bytes.hpp"
#include "bkt_apps_test/temp_dir.hpp"

namespace bkt::apps {
namespace {

class npy_io : public test::temp_dir_test {
 protected:
  /// The error message reading `bytes` as a .npy file gives (empty when it reads).
  std::string error_of(const std::string& bytes, std::optional<std::int64_t> column = std::nullopt) {
    input_options options;
    options.path = write_file("bad.npy", bytes);
    options.column = column;
    try {
      read_array(options);
    } catch (const app_error& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.rfind(options.path + ": ", 0), 0u) << message;  // names the file first
      return message.substr(options.path.size() + 2);
    }
    return {};
  }

  template <class T>
  std::vector<T> read_values(const std::string& bytes, std::optional<std::int64_t> column = std::nullopt) {
    input_options options;
    options.path = write_file("in.npy", bytes);
    options.column = column;
    const numeric_array array = read_array(options);
    const auto values = array.as<T>();
    return {values.begin(), values.end()};
  }
};

TEST_F(npy_io, reads_version_1_2_and_3) {
  const std::vector<float> values = {1.5f, -2.0f, 3.25f};
  const std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }";
  for (int major : {1, 2, 3})
    EXPECT_EQ(read_values<float>(test::npy_bytes(dict, test::bytes_of(values), major)), values);
}

TEST_F(npy_io, header_variants) {
  const std::vector<std::int64_t> values = {5, -6};
  const std::string data = test::bytes_of(values);
  // Keys in another order, double quotes, no trailing comma, Python 2 longs, extra spaces.
  EXPECT_EQ(read_values<std::int64_t>(test::npy_bytes("{'shape': (2,), 'fortran_order': False, 'descr': '<i8'}", data)),
            values);
  EXPECT_EQ(read_values<std::int64_t>(
                test::npy_bytes("{\"descr\": \"<i8\", \"fortran_order\": False, \"shape\": (2L,)}", data)),
            values);
  EXPECT_EQ(read_values<std::int64_t>(
                test::npy_bytes("{ 'descr' : '=i8' , 'fortran_order' : False , 'shape' : ( 2 , ) , }", data)),
            values);
  // A 1-D array marked Fortran-order is laid out the same way.
  EXPECT_EQ(
      read_values<std::int64_t>(test::npy_bytes("{'descr': '<i8', 'fortran_order': True, 'shape': (2,), }", data)),
      values);
}

TEST_F(npy_io, single_byte_types_and_zero_d) {
  EXPECT_EQ(read_values<std::uint8_t>(
                test::npy_bytes("{'descr': '|u1', 'fortran_order': False, 'shape': (3,), }", "\x01\x02\xff")),
            (std::vector<std::uint8_t>{1, 2, 255}));
  EXPECT_EQ(
      read_values<std::int8_t>(test::npy_bytes("{'descr': '|i1', 'fortran_order': False, 'shape': (1,), }", "\xff")),
      (std::vector<std::int8_t>{-1}));
  EXPECT_EQ(read_values<double>(test::npy_bytes("{'descr': '<f8', 'fortran_order': False, 'shape': (), }",
                                                test::bytes_of(std::vector<double>{4.5}))),
            (std::vector<double>{4.5}));
  EXPECT_TRUE(
      read_values<double>(test::npy_bytes("{'descr': '<f8', 'fortran_order': False, 'shape': (0,), }", "")).empty());
}

TEST_F(npy_io, big_endian_data_is_swapped) {
  const std::vector<std::uint16_t> u16 = {0x0102, 0xfffe};
  EXPECT_EQ(read_values<std::uint16_t>(test::npy_bytes("{'descr': '>u2', 'fortran_order': False, 'shape': (2,), }",
                                                       test::swapped_bytes_of(u16))),
            u16);
  const std::vector<double> f64 = {-1.0 / 3, 6.02e23};
  EXPECT_EQ(read_values<double>(test::npy_bytes("{'descr': '>f8', 'fortran_order': False, 'shape': (2,), }",
                                                test::swapped_bytes_of(f64))),
            f64);
}

TEST_F(npy_io, column_of_a_2d_array) {
  // 4 rows x 3 columns, C order: row r holds 10r, 10r+1, 10r+2.
  std::vector<std::int32_t> matrix;
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 3; ++c) matrix.push_back(10 * r + c);
  const std::string bytes =
      test::npy_bytes("{'descr': '<i4', 'fortran_order': False, 'shape': (4, 3), }", test::bytes_of(matrix));
  EXPECT_EQ(read_values<std::int32_t>(bytes, 1), (std::vector<std::int32_t>{0, 10, 20, 30}));
  EXPECT_EQ(read_values<std::int32_t>(bytes, 3), (std::vector<std::int32_t>{2, 12, 22, 32}));
  EXPECT_EQ(error_of(bytes), "a 2-D array (4 x 3): choose a column with --column (1 to 3)");
  EXPECT_EQ(error_of(bytes, 4), "--column 4 is outside the array's 3 columns");
  // One column needs no --column.
  EXPECT_EQ(read_values<std::int32_t>(test::npy_bytes("{'descr': '<i4', 'fortran_order': False, 'shape': (2, 1), }",
                                                      test::bytes_of(std::vector<std::int32_t>{7, 8}))),
            (std::vector<std::int32_t>{7, 8}));
}

TEST_F(npy_io, column_streams_in_chunks) {
  std::vector<std::uint64_t> matrix;
  for (std::uint64_t r = 0; r < 1000; ++r) matrix.insert(matrix.end(), {r, r * r});
  input_options options;
  options.path = write_file("m.npy", test::npy_bytes("{'descr': '<u8', 'fortran_order': False, 'shape': (1000, 2), }",
                                                     test::bytes_of(matrix)));
  options.column = 2;
  chunk_reader reader(options);
  EXPECT_EQ(reader.total_items(), 1000);
  std::uint64_t row = 0;
  for (numeric_array chunk = reader.next(333); !chunk.empty(); chunk = reader.next(333))
    for (std::uint64_t value : chunk.as<std::uint64_t>()) {
      EXPECT_EQ(value, row * row);
      ++row;
    }
  EXPECT_EQ(row, 1000u);
}

TEST_F(npy_io, column_on_1d_array) {
  const std::string bytes = test::npy_bytes("{'descr': '<i4', 'fortran_order': False, 'shape': (1,), }",
                                            test::bytes_of(std::vector<std::int32_t>{1}));
  EXPECT_EQ(read_values<std::int32_t>(bytes, 1), (std::vector<std::int32_t>{1}));
  EXPECT_EQ(error_of(bytes, 2), "a 1-D array has one column; --column 2 does not apply");
}

TEST_F(npy_io, refuses_fortran_order_2d) {
  EXPECT_EQ(
      error_of(test::npy_bytes("{'descr': '<f8', 'fortran_order': True, 'shape': (2, 2), }", std::string(32, '\0')), 1),
      "Fortran-order (column-major) 2-D arrays are not supported; save it with numpy.ascontiguousarray first");
}

TEST_F(npy_io, refuses_object_and_unsupported_dtypes) {
  EXPECT_EQ(
      error_of(test::npy_bytes("{'descr': '|O', 'fortran_order': False, 'shape': (2,), }", std::string(16, '\0'))),
      "object arrays (dtype '|O') are not supported");
  const std::string supported = " (supported: u8, u16, u32, u64, i8, i16, i32, i64, f16, f32, f64)";
  EXPECT_EQ(
      error_of(test::npy_bytes("{'descr': '<c16', 'fortran_order': False, 'shape': (1,), }", std::string(16, '\0'))),
      "unsupported dtype '<c16'" + supported);
  EXPECT_EQ(error_of(test::npy_bytes("{'descr': '|b1', 'fortran_order': False, 'shape': (1,), }", "\x01")),
            "unsupported dtype '|b1'" + supported);
  EXPECT_EQ(error_of(test::npy_bytes("{'descr': '<f16', 'fortran_order': False, 'shape': (1,), }", std::string(16, 'a'))),
            "unsupported dtype '<f16'" + supported);
  EXPECT_EQ(
      error_of(test::npy_bytes("{'descr': '<U3', 'fortran_order': False, 'shape': (1,), }", std::string(12, 'a'))),
      "unsupported dtype '<U3'" + supported);
  EXPECT_EQ(error_of(test::npy_bytes("{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': (1,), }", "abcd")),
            "structured dtypes (records) are not supported");
}

TEST_F(npy_io, refuses_more_than_two_dimensions) {
  EXPECT_EQ(error_of(test::npy_bytes("{'descr': '<u2', 'fortran_order': False, 'shape': (2, 3, 4), }",
                                     std::string(48, '\0'))),
            "3-D array (2 x 3 x 4): only 1-D arrays or one column of a 2-D array can be read");
}

TEST_F(npy_io, refuses_a_dtype_other_than_asked) {
  input_options options;
  options.path =
      write_file("a.npy", test::npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", "abcd"));
  options.type = dtype::u32;
  try {
    read_array(options);
    FAIL() << "no error";
  } catch (const app_error& e) {
    EXPECT_EQ(std::string(e.what()), options.path + ": the array holds f32, not the u32 that --dtype asks for");
  }
  options.type = dtype::f32;
  EXPECT_EQ(read_array(options).size(), 1);
}

TEST_F(npy_io, refuses_truncated_data) {
  EXPECT_EQ(
      error_of(test::npy_bytes("{'descr': '<u4', 'fortran_order': False, 'shape': (3,), }", std::string(10, '\0'))),
      "truncated: the header promises 3 u32 elements (12 bytes), the file holds 10 bytes of data");
}

TEST_F(npy_io, refuses_bad_magic_version_and_truncated_headers) {
  EXPECT_EQ(error_of("\x93NUMPX\x01\x00"), "not a .npy file (no \\x93NUMPY magic)");
  EXPECT_EQ(error_of(""), "not a .npy file (no \\x93NUMPY magic)");
  EXPECT_EQ(error_of(std::string("\x93NUMPY\x04\x00\x10\x00", 10) + std::string(16, ' ')),
            "unsupported .npy format version 4.0");
  EXPECT_EQ(error_of(std::string("\x93NUMPY\x01\x00", 8)), "truncated .npy header");
  EXPECT_EQ(error_of(std::string("\x93NUMPY\x01\x00\x40\x00{'descr'", 17)), "truncated .npy header");
}

TEST_F(npy_io, refuses_malformed_dicts) {
  const auto error = [&](const std::string& dict) { return error_of(test::npy_bytes(dict, std::string(8, '\0'))); };
  EXPECT_EQ(error("{'descr': '<u4', 'shape': (2,), }"),
            "malformed .npy header: it needs 'descr', 'fortran_order' and 'shape'");
  EXPECT_EQ(error("{'descr': '<u4', 'fortran_order': False, 'shape': (2,), 'extra': 1}"),
            "malformed .npy header: unknown key 'extra'");
  EXPECT_EQ(error("{'descr': '<u4', 'fortran_order': Maybe, 'shape': (2,), }"),
            "malformed .npy header: expected True or False");
  EXPECT_EQ(error("{'descr': '<u4', 'fortran_order': False, 'shape': (-2,), }"),
            "malformed .npy header: shape must hold non-negative integers");
  EXPECT_EQ(error("{'descr': '<u4', 'fortran_order': False, 'shape': [2], }"), "malformed .npy header: expected '('");
  EXPECT_EQ(error("{'descr' '<u4', 'fortran_order': False, 'shape': (2,), }"), "malformed .npy header: expected ':'");
  EXPECT_EQ(error("{'descr': '<u4', 'fortran_order': False 'shape': (2,), }"), "malformed .npy header: expected '}'");
  EXPECT_EQ(error("{'descr': '<u4', 'fortran_order': False, 'shape': (2,), "),
            "malformed .npy header: expected a quoted string");
  EXPECT_EQ(error("['descr']"), "malformed .npy header: expected '{'");
  EXPECT_EQ(error("{'descr': '<u4', 'fortran_order': False, 'shape': (2,)} trailing"),
            "malformed .npy header: text after the dict");
  EXPECT_EQ(error("{'descr': '<u4', 'fortran_order': False, 'shape': (4611686018427387904, 4), }"),
            "malformed .npy header: shape too large");
}

TEST_F(npy_io, writes_a_header_numpy_reads) {
  output_options options;
  options.path = path("out.npy");
  write_array(options, file_format::npy, numeric_array::copy_of<std::uint16_t>(std::vector<std::uint16_t>{1, 2, 3}));
  const std::string bytes = read_file(options.path);
  ASSERT_EQ(bytes.size(), 128u + 6u);  // the data starts at a multiple of 64
  EXPECT_EQ(bytes.substr(0, 10), std::string("\x93NUMPY\x01\x00\x76\x00", 10));
  const std::string dict = "{'descr': '<u2', 'fortran_order': False, 'shape': (3,), }";
  EXPECT_EQ(bytes.substr(10, 118), dict + std::string(117 - dict.size(), ' ') + "\n");
  EXPECT_EQ(read_values<std::uint16_t>(bytes), (std::vector<std::uint16_t>{1, 2, 3}));
}

TEST_F(npy_io, single_byte_dtype_has_no_byte_order) {
  EXPECT_NE(detail::format_npy_header(dtype::i8, 1).find("'|i1'"), std::string::npos);
  EXPECT_NE(detail::format_npy_header(dtype::f64, 1).find("'<f8'"), std::string::npos);
}

TEST_F(npy_io, streaming_writer_patches_the_count) {
  output_options options;
  options.path = path("stream.npy");
  array_writer writer(options, file_format::npy, dtype::f32);  // count unknown up front
  for (int i = 0; i < 5; ++i) writer.write(std::span<const float>(std::vector<float>{float(i), float(i) + 0.5f}));
  writer.finish();
  const std::string bytes = read_file(options.path);
  EXPECT_EQ((bytes.size() - 40) % 64, 0u);
  EXPECT_EQ(read_values<float>(bytes).size(), 10u);
  EXPECT_EQ(read_values<float>(bytes)[9], 4.5f);
}

TEST_F(npy_io, round_trip_of_every_dtype) {
  output_options options;
  options.path = path("all.npy");
  for (dtype type : {dtype::u8, dtype::u16, dtype::u32, dtype::u64, dtype::i8, dtype::i16, dtype::i32, dtype::i64,
                     dtype::f16, dtype::f32, dtype::f64}) {
    numeric_array array(type, 3);
    for (std::size_t i = 0; i < array.size_bytes(); ++i) array.data()[i] = std::byte(i * 7 + 1);
    write_array(options, file_format::npy, array);
    input_options input;
    input.path = options.path;
    const numeric_array back = read_array(input);
    EXPECT_EQ(back.type(), type);
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(back.data()), back.size_bytes()),
              std::string(reinterpret_cast<const char*>(array.data()), array.size_bytes()));
  }
}

}  // namespace
}  // namespace bkt::apps
