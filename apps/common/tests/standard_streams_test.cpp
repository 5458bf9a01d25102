// Standard input and output, by pointing descriptors 0 and 1 at files for the length of a test.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>

#include "bkt_apps/numeric_io.hpp"
#include "bkt_apps_test/bytes.hpp"
#include "bkt_apps_test/temp_dir.hpp"

namespace bkt::apps {
namespace {

/// Points `fd` at `file` until destroyed.
class redirect {
 public:
  redirect(int fd, const std::string& file, int flags) : fd_(fd), saved_(::dup(fd)) {
    const int opened = ::open(file.c_str(), flags, 0644);
    ::dup2(opened, fd);
    ::close(opened);
  }
  ~redirect() {
    ::dup2(saved_, fd_);
    ::close(saved_);
  }

 private:
  int fd_;
  int saved_;
};

using standard_streams = test::temp_dir_test;

TEST_F(standard_streams, stdin_defaults_to_text) {
  const std::string file = write_file("in", "3\n1\n2\n");
  redirect in(STDIN_FILENO, file, O_RDONLY);
  input_options options;
  options.path = "-";
  options.type = dtype::u32;
  chunk_reader reader(options);
  EXPECT_EQ(reader.format(), file_format::text);
  EXPECT_EQ(reader.name(), "<stdin>");
  EXPECT_EQ(reader.total_items(), std::nullopt);
  EXPECT_EQ(reader.next(10).size(), 3);
}

TEST_F(standard_streams, stdin_npy_is_recognised_by_its_magic) {
  const std::string file = write_file("in", test::npy_bytes("{'descr': '<i2', 'fortran_order': False, 'shape': (2,), }",
                                                            test::bytes_of(std::vector<std::int16_t>{-1, 9})));
  redirect in(STDIN_FILENO, file, O_RDONLY);
  const numeric_array array = read_array(input_options{});
  EXPECT_EQ(array.type(), dtype::i16);
  EXPECT_EQ(array.as<std::int16_t>()[1], 9);
}

TEST_F(standard_streams, stdin_raw_when_told) {
  const std::string file = write_file("in", test::bytes_of(std::vector<std::uint16_t>{4, 5, 6}) + "x");
  redirect in(STDIN_FILENO, file, O_RDONLY);
  input_options options;
  options.format = file_format::raw;
  options.type = dtype::u16;
  chunk_reader reader(options);
  EXPECT_EQ(reader.total_items(), std::nullopt);  // a stream's length is not known ahead
  EXPECT_EQ(reader.next(2).size(), 2);
  try {
    reader.next(2);
    FAIL() << "no error";
  } catch (const app_error& e) {  // the stray byte shows at the end
    EXPECT_EQ(std::string(e.what()), "<stdin>: 7 bytes is not a whole number of u16 elements (2 bytes each)");
  }
}

TEST_F(standard_streams, npy_to_stdout_without_a_count_is_held_until_finish) {
  const std::string file = path("out");
  {
    std::fflush(stdout);
    redirect out(STDOUT_FILENO, file, O_WRONLY | O_CREAT | O_TRUNC);
    array_writer writer(output_options{}, file_format::npy, dtype::f64);
    EXPECT_EQ(writer.name(), "<stdout>");
    writer.write(std::span<const double>(std::vector<double>{1, 2}));
    writer.write(std::span<const double>(std::vector<double>{3}));
    writer.finish();
  }
  input_options options;
  options.path = file;
  options.format = file_format::npy;
  const numeric_array array = read_array(options);
  ASSERT_EQ(array.size(), 3);
  EXPECT_EQ(array.as<double>()[2], 3.0);
}

TEST_F(standard_streams, text_to_stdout) {
  const std::string file = path("out");
  {
    std::fflush(stdout);
    redirect out(STDOUT_FILENO, file, O_WRONLY | O_CREAT | O_TRUNC);
    write_array(output_options{"-", std::nullopt, byte_order::little}, file_format::text,
                numeric_array::copy_of<std::int32_t>(std::vector<std::int32_t>{-1, 2}));
  }
  EXPECT_EQ(read_file(file), "-1\n2\n");
}

}  // namespace
}  // namespace bkt::apps
