// Text read without --dtype: the values choose i64, u64 or f64, integers stay exact (f64 lost
// digits above 2^53 before), and a stream that turns out wider than its start is refused with the
// dtype to give.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "bkt_apps/numeric_io.hpp"
#include "bkt_apps_test/temp_dir.hpp"
#include "text_number.hpp"

namespace bkt::apps {
namespace {

dtype column_of(const std::vector<std::string>& fields) {
  detail::column_dtype column;
  for (const auto& field : fields) column.add(field);
  return column.type();
}

TEST(column_dtype, integers_choose_i64_or_u64) {
  EXPECT_EQ(column_of({"1", "-2", "+3", "007", "-0"}), dtype::i64);
  EXPECT_EQ(column_of({"9223372036854775807", "-9223372036854775808"}), dtype::i64);
  EXPECT_EQ(column_of({"9223372036854775808", "0"}), dtype::u64);
  EXPECT_EQ(column_of({"18446744073709551615", "-0", "00000000000000000000000000000001"}), dtype::u64);
}

TEST(column_dtype, every_value_of_a_u64_column_reads_as_u64) {
  // "-0" counts as zero, so a column of it and u64's maximum is u64, and "-0" must read as 0 there.
  ASSERT_EQ(column_of({"-0", "18446744073709551615", "-000"}), dtype::u64);
  for (const char* field : {"-0", "-000", "18446744073709551615"}) {
    std::uint64_t value = 1;
    EXPECT_EQ(detail::parse_number(field, dtype::u64, &value), "") << field;
    EXPECT_EQ(value, field[0] == '-' ? 0 : std::numeric_limits<std::uint64_t>::max());
  }
  std::uint64_t value = 0;
  EXPECT_NE(detail::parse_number("-1", dtype::u64, &value), "");
}

TEST(column_dtype, anything_else_chooses_f64) {
  for (const char* field : {"1e3", "1.0", "1.", ".5", "inf", "-inf", "nan", "0x10", "", "-", "+", "1 2", "three"})
    EXPECT_EQ(column_of({"1", field}), dtype::f64) << "'" << field << "'";
  EXPECT_EQ(column_of({"18446744073709551616"}), dtype::f64);   // beyond u64
  EXPECT_EQ(column_of({"-9223372036854775809"}), dtype::f64);   // below i64
  EXPECT_EQ(column_of({"-1", "9223372036854775808"}), dtype::f64);  // no integer dtype holds both
  EXPECT_EQ(column_of({"9223372036854775808", "-1"}), dtype::f64);
  EXPECT_EQ(column_of({}), dtype::f64);  // an empty column, as NumPy's loadtxt reads it
}

TEST(column_dtype, f64_is_final) {
  detail::column_dtype column;
  EXPECT_TRUE(column.add("5"));
  EXPECT_FALSE(column.add("0.5"));
  EXPECT_FALSE(column.add("6"));
  EXPECT_EQ(column.type(), dtype::f64);
}

class text_dtype : public test::temp_dir_test {
 protected:
  input_options file_with(const std::string& text) {
    input_options options;
    options.path = write_file("in.txt", text);
    return options;
  }
};

TEST_F(text_dtype, integers_beyond_two_to_the_53_stay_exact) {
  const numeric_array array = read_array(file_with("9007199254740993\n-9223372036854775808\n+7\n"));
  ASSERT_EQ(array.type(), dtype::i64);
  EXPECT_EQ(array.as<std::int64_t>()[0], 9007199254740993);
  EXPECT_EQ(array.as<std::int64_t>()[1], std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(array.as<std::int64_t>()[2], 7);
}

TEST_F(text_dtype, above_i64_without_negatives_is_u64) {
  const numeric_array array = read_array(file_with("18446744073709551615\n0\n9223372036854775808\n"));
  ASSERT_EQ(array.type(), dtype::u64);
  EXPECT_EQ(array.as<std::uint64_t>()[0], std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(array.as<std::uint64_t>()[2], std::uint64_t{1} << 63);
}

TEST_F(text_dtype, one_non_integer_anywhere_makes_the_file_f64) {
  // The float comes after several megabytes of integers: the file is read again as f64.
  std::string text;
  for (int i = 0; i < 700000; ++i) text += std::to_string(1000000 + i) + "\n";
  text += "2.5\n";
  const numeric_array array = read_array(file_with(text));
  ASSERT_EQ(array.type(), dtype::f64);
  EXPECT_EQ(array.size(), 700001);
  EXPECT_EQ(array.as<double>()[0], 1000000.0);
  EXPECT_EQ(array.as<double>()[700000], 2.5);
}

TEST_F(text_dtype, the_chosen_column_decides_and_the_header_is_skipped) {
  input_options options = file_with("id,weight\n1,2.5\n2,-4\n3,1e2\n");
  options.skip_header = true;
  options.column = 1;
  EXPECT_EQ(read_array(options).type(), dtype::i64);
  options.column = 2;
  EXPECT_EQ(read_array(options).type(), dtype::f64);
  options = file_with("# comment\n\n  5  \n6\r\n");  // comments, blank lines, spaces and CRLF
  EXPECT_EQ(read_array(options).type(), dtype::i64);
}

TEST_F(text_dtype, empty_and_comment_only_text_is_f64) {
  EXPECT_EQ(read_array(file_with("")).type(), dtype::f64);
  EXPECT_EQ(read_array(file_with("# nothing\n\n")).type(), dtype::f64);
}

TEST_F(text_dtype, reported_as_inferred_only_without_dtype) {
  input_options options = file_with("1\n2\n");
  EXPECT_TRUE(chunk_reader(options).type_inferred());
  options.type = dtype::u8;
  EXPECT_FALSE(chunk_reader(options).type_inferred());
}

TEST_F(text_dtype, a_bad_line_still_names_its_line) {
  try {
    read_array(file_with("1\n2\nthree\n"));
    FAIL() << "no error";
  } catch (const app_error& e) {
    EXPECT_NE(std::string(e.what()).find("in.txt:3: not a number: 'three'"), std::string::npos) << e.what();
  }
}

/// Points standard input at a file for the length of a test.
class stdin_from {
 public:
  explicit stdin_from(const std::string& file) : saved_(::dup(STDIN_FILENO)) {
    const int opened = ::open(file.c_str(), O_RDONLY);
    ::dup2(opened, STDIN_FILENO);
    ::close(opened);
  }
  ~stdin_from() {
    ::dup2(saved_, STDIN_FILENO);
    ::close(saved_);
  }

 private:
  int saved_;
};

/// Integer lines filling more than the 4 MiB a stream is judged by, then `tail`.
std::string long_integer_text(const std::string& tail) {
  std::string text;
  for (int i = 0; text.size() < (std::size_t{5} << 20); ++i) text += std::to_string(100000 + i % 1000) + "\n";
  return text + tail;
}

class text_dtype_stdin : public text_dtype {
 protected:
  /// The error reading standard input gives, or "" when it reads.
  std::string error_reading(const std::string& text) {
    stdin_from in(write_file("stdin.txt", text));
    try {
      read_array(input_options{});
    } catch (const app_error& e) {
      return e.what();
    }
    return {};
  }
};

TEST_F(text_dtype_stdin, a_short_stream_is_judged_whole) {
  stdin_from in(write_file("stdin.txt", "1\n0.5\n"));
  const numeric_array array = read_array(input_options{});
  EXPECT_EQ(array.type(), dtype::f64);
  EXPECT_EQ(array.size(), 2);
}

TEST_F(text_dtype_stdin, integers_read_exactly) {
  stdin_from in(write_file("stdin.txt", "9007199254740993\n18446744073709551615"));  // no final newline
  const numeric_array array = read_array(input_options{});
  ASSERT_EQ(array.type(), dtype::u64);
  EXPECT_EQ(array.as<std::uint64_t>()[0], 9007199254740993u);
  EXPECT_EQ(array.as<std::uint64_t>()[1], std::numeric_limits<std::uint64_t>::max());
}

TEST_F(text_dtype_stdin, a_late_float_is_refused_with_the_dtype_to_give) {
  const std::string message = error_reading(long_integer_text("7.25\n"));
  EXPECT_NE(message.find("<stdin>:"), std::string::npos) << message;
  EXPECT_NE(message.find("'7.25' does not fit the i64"), std::string::npos) << message;
  EXPECT_NE(message.find("give --dtype f64"), std::string::npos) << message;
}

TEST_F(text_dtype_stdin, a_late_large_value_asks_for_u64_or_f64) {
  EXPECT_NE(error_reading(long_integer_text("18446744073709551615\n")).find("give --dtype u64"), std::string::npos);
  // After a negative, only f64 holds both.
  EXPECT_NE(error_reading(long_integer_text("-1\n18446744073709551615\n")).find("give --dtype f64"),
            std::string::npos);
  // Not a number at all is the usual message.
  EXPECT_NE(error_reading(long_integer_text("three\n")).find("not a number: 'three'"), std::string::npos);
}

TEST_F(text_dtype_stdin, a_late_integer_that_fits_reads) {
  stdin_from in(write_file("stdin.txt", long_integer_text("-5\n")));
  const numeric_array array = read_array(input_options{});
  ASSERT_EQ(array.type(), dtype::i64);
  EXPECT_EQ(array.as<std::int64_t>()[array.size() - 1], -5);
}

}  // namespace
}  // namespace bkt::apps
