// Input parts (mpirun: one per rank) and array parts written into one file: the parts of every
// format concatenate to the whole input, and the parts written at their offsets give the bytes
// array_writer gives for the whole array.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "bkt_apps/array_part.hpp"
#include "bkt_apps/numeric_io.hpp"
#include "bkt_apps_test/bytes.hpp"
#include "bkt_apps_test/temp_dir.hpp"

namespace bkt::apps {
namespace {

using input_part_test = test::temp_dir_test;

/// Every part's elements in part order, and each part's first_item() where the reader knows it.
template <class T>
std::vector<T> read_all_parts(input_options options, int parts, std::vector<std::optional<std::int64_t>>* firsts = nullptr) {
  std::vector<T> all;
  for (int index = 0; index < parts; ++index) {
    options.part = {index, parts};
    chunk_reader reader(options);
    if (firsts) firsts->push_back(reader.first_item());
    for (numeric_array chunk = reader.next(7); !chunk.empty(); chunk = reader.next(7)) {
      const auto values = chunk.as<T>();
      all.insert(all.end(), values.begin(), values.end());
    }
  }
  return all;
}

std::vector<std::uint32_t> iota_values(std::uint32_t count) {
  std::vector<std::uint32_t> values(count);
  for (std::uint32_t i = 0; i < count; ++i) values[i] = 3 * i + 1;
  return values;
}

TEST_F(input_part_test, raw_parts_concatenate_to_the_whole_with_known_first_items) {
  for (const std::uint32_t count : {0u, 1u, 5u, 31u, 32u, 33u, 1001u}) {
    const std::vector<std::uint32_t> values = iota_values(count);
    input_options options;
    options.path = write_file("a.raw", test::bytes_of(values));
    options.type = dtype::u32;
    for (const int parts : {1, 2, 3, 8}) {
      std::vector<std::optional<std::int64_t>> firsts;
      EXPECT_EQ(read_all_parts<std::uint32_t>(options, parts, &firsts), values) << count << " in " << parts;
      for (int index = 0; index < parts; ++index)
        EXPECT_EQ(firsts[static_cast<std::size_t>(index)], std::int64_t{count} * index / parts);
    }
  }
}

TEST_F(input_part_test, large_reads_spread_over_threads_return_the_files_bytes) {
  // Reads of 64 MiB and more go to several threads at once (input_stream::read_parallel).
  const std::vector<std::uint32_t> values = iota_values(std::uint32_t{25} << 20);  // 100 MiB
  input_options options;
  options.path = write_file("big.raw", test::bytes_of(values));
  options.type = dtype::u32;
  const numeric_array whole = read_array(options);
  ASSERT_EQ(whole.size(), static_cast<std::int64_t>(values.size()));
  EXPECT_TRUE(std::equal(values.begin(), values.end(), whole.as<std::uint32_t>().begin()));
  options.part = {1, 3};  // a part that starts and ends inside the file
  const numeric_array middle = read_array(options);
  const std::size_t first = values.size() / 3, last = values.size() * 2 / 3;
  ASSERT_EQ(middle.size(), static_cast<std::int64_t>(last - first));
  EXPECT_TRUE(std::equal(values.begin() + first, values.begin() + last, middle.as<std::uint32_t>().begin()));
}

TEST_F(input_part_test, npy_parts_of_a_column_concatenate_to_the_column) {
  // 2-D, 3 columns: the part cuts rows, and the column is picked inside each.
  std::vector<std::int32_t> table;
  for (int row = 0; row < 50; ++row)
    for (int column = 0; column < 3; ++column) table.push_back(100 * row + column);
  input_options options;
  options.path = write_file("t.npy", test::npy_bytes("{'descr': '<i4', 'fortran_order': False, 'shape': (50, 3), }",
                                                     test::bytes_of(table)));
  options.column = 2;
  std::vector<std::int32_t> column;
  for (int row = 0; row < 50; ++row) column.push_back(100 * row + 1);
  for (const int parts : {1, 2, 7, 64}) EXPECT_EQ(read_all_parts<std::int32_t>(options, parts), column) << parts;
}

TEST_F(input_part_test, text_parts_split_at_line_starts_and_keep_the_files_choices) {
  // A header, comments, blank lines, CRLF, a long line and commas: each line in exactly one part,
  // the header skipped only once, the delimiter chosen by the first data line for every part.
  std::string text = "value,weight\n# a comment\n1,9\r\n\n2,8\n";
  std::vector<std::int64_t> expected = {1, 2};
  for (int i = 3; i < 200; ++i) {
    text += std::to_string(i * 7) + "," + std::string(i % 13 == 0 ? 300 : 1, '5') + "\n";
    expected.push_back(i * 7);
  }
  text += "999,1";  // no final newline
  expected.push_back(999);
  input_options options;
  options.path = write_file("a.csv", text);
  options.skip_header = true;
  options.column = 1;
  for (const int parts : {1, 2, 3, 5, 16, 600}) {
    std::vector<std::optional<std::int64_t>> firsts;
    EXPECT_EQ(read_all_parts<std::int64_t>(options, parts, &firsts), expected) << parts;
    EXPECT_EQ(firsts.front(), 0);
  }
}

TEST_F(input_part_test, an_error_in_a_later_text_part_names_the_files_line) {
  std::string text;
  for (int i = 1; i <= 100; ++i) text += (i == 90 ? std::string("x9") : std::to_string(i)) + "\n";
  input_options options;
  options.path = write_file("bad.txt", text);
  options.type = dtype::i64;
  options.part = {3, 4};  // holds the last quarter, line 90 among them
  chunk_reader reader(options);
  try {
    reader.next(1000);
    FAIL() << "no error";
  } catch (const app_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind(options.path + ":90: ", 0), 0u) << e.what();
  }
}

TEST_F(input_part_test, standard_input_cannot_be_cut) {
  input_options options;
  options.path = "-";
  options.part = {0, 2};
  try {
    chunk_reader reader(options);
    FAIL() << "standard input was cut";
  } catch (const app_error& e) {
    EXPECT_EQ(e.code(), exit_usage) << e.what();
  }
}

/// Writes `values` as `parts` parts at their offsets into one file, as the ranks do.
template <class T>
std::string write_in_parts(const std::string& file, file_format format, const std::vector<T>& values, int parts) {
  test::write_file(file, "");
  const std::string prefix = array_prefix(format, dtype_of<T>(), static_cast<std::int64_t>(values.size()));
  std::int64_t offset = static_cast<std::int64_t>(prefix.size());
  for (int index = 0; index < parts; ++index) {
    const auto first = static_cast<std::size_t>(values.size() * index / parts);
    const auto last = static_cast<std::size_t>(values.size() * (index + 1) / parts);
    const T* data = values.data() + first;
    const auto count = static_cast<std::int64_t>(last - first);
    const std::int64_t element = fixed_element_bytes(format, dtype_of<T>());
    const std::int64_t bytes = element > 0 ? count * element : text_bytes(data, count, dtype_of<T>());
    array_part_writer writer(file, file, format, byte_order::big, dtype_of<T>(), index == 0 ? 0 : offset);
    if (index == 0) writer.write_bytes(prefix.data(), static_cast<std::int64_t>(prefix.size()));
    writer.write(data, count);
    writer.finish();
    offset += bytes;
  }
  return test::read_file(file);
}

TEST_F(input_part_test, parts_written_at_their_offsets_equal_the_whole_written_at_once) {
  const std::vector<double> values = {-0.0, 1.5, 1e300, -2.25, 3.0, 0.1, 7.0};
  for (const file_format format : {file_format::raw, file_format::npy, file_format::text}) {
    output_options whole;
    whole.path = path("whole");
    whole.order = byte_order::big;
    write_array(whole, format, numeric_array::copy_of<double>(values));
    for (const int parts : {1, 2, 3, 9})
      EXPECT_EQ(write_in_parts(path("parts"), format, values, parts), read_file(whole.path))
          << file_format_name(format) << " in " << parts;
  }
}

}  // namespace
}  // namespace bkt::apps
