// Distance output: text lines and .npy arrays, read back.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bkt_apps_test/temp_dir.hpp"
#include "bkt_apps/app_error.hpp"
#include "bkt_apps/numeric_io.hpp"
#include "io/write_distances.hpp"

namespace bkt::sssp {
namespace {

constexpr std::uint64_t none = std::numeric_limits<std::uint64_t>::max();
constexpr double inf = std::numeric_limits<double>::infinity();

class io_write_distances : public apps::test::temp_dir_test {
 protected:
  static apps::numeric_array read_npy(const std::string& file) {
    apps::input_options input;
    input.path = file;
    return apps::read_array(input);
  }
};

TEST_F(io_write_distances, text_with_parents_in_file_numbering) {
  const std::vector<std::uint64_t> distances{0, 5, none, 7};
  const std::vector<std::int64_t> parents{-1, 0, -1, 1};
  write_distances<std::uint64_t>(path("d.txt"), distances, parents, 0, 1);
  EXPECT_EQ(read_file(path("d.txt")), "# source 1\n1 0 -\n2 5 1\n3 inf -\n4 7 2\n");
}

TEST_F(io_write_distances, text_without_parents_zero_based) {
  const std::vector<std::uint64_t> distances{3, 0, none, 18446744073709551614ull};
  write_distances<std::uint64_t>(path("d.txt"), distances, {}, 1, 0);
  EXPECT_EQ(read_file(path("d.txt")), "# source 1\n0 3\n1 0\n2 inf\n3 18446744073709551614\n");
}

TEST_F(io_write_distances, doubles_read_back_exactly) {
  const std::vector<double> distances{0, 0.1, inf, 1e300, 2.5, 1.0 / 3, 5e-324};
  write_distances<double>(path("d.txt"), distances, {}, 0, 0);
  std::istringstream lines(read_file(path("d.txt")));
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line, "# source 0");
  for (std::size_t v = 0; v < distances.size(); ++v) {
    ASSERT_TRUE(std::getline(lines, line));
    const std::size_t space = line.find(' ');
    EXPECT_EQ(line.substr(0, space), std::to_string(v));
    const std::string text = line.substr(space + 1);
    if (distances[v] == inf) EXPECT_EQ(text, "inf");
    else EXPECT_EQ(std::strtod(text.c_str(), nullptr), distances[v]) << text;
  }
  EXPECT_FALSE(std::getline(lines, line));
}

TEST_F(io_write_distances, many_vertices_in_order) {
  std::vector<std::uint64_t> distances(300000);
  std::vector<std::int64_t> parents(distances.size());
  for (std::size_t v = 0; v < distances.size(); ++v) {
    distances[v] = v * 3;
    parents[v] = static_cast<std::int64_t>(v) - 1;
  }
  write_distances<std::uint64_t>(path("d.txt"), distances, parents, 0, 1);
  std::istringstream lines(read_file(path("d.txt")));
  std::string line;
  std::getline(lines, line);
  for (std::size_t v = 0; v < distances.size(); ++v) {
    ASSERT_TRUE(std::getline(lines, line));
    const std::string want = std::to_string(v + 1) + " " + std::to_string(v * 3) + " " + (v == 0 ? "-" : std::to_string(v));
    ASSERT_EQ(line, want);
  }
}

TEST_F(io_write_distances, npy_integers_and_parents) {
  const std::vector<std::uint64_t> distances{4, 0, none, 9};
  const std::vector<std::int64_t> parents{1, 1, 3, 0};  // the source's and the unreachable one's are dropped
  write_distances<std::uint64_t>(path("d.npy"), distances, parents, 1, 1);
  const apps::numeric_array read = read_npy(path("d.npy"));
  ASSERT_EQ(read.type(), apps::dtype::u64);
  const auto values = read.as<std::uint64_t>();
  EXPECT_EQ(std::vector<std::uint64_t>(values.begin(), values.end()), distances);
  const apps::numeric_array read_parents = read_npy(path("d-parents.npy"));
  ASSERT_EQ(read_parents.type(), apps::dtype::i64);
  const auto parent_values = read_parents.as<std::int64_t>();
  EXPECT_EQ(std::vector<std::int64_t>(parent_values.begin(), parent_values.end()), (std::vector<std::int64_t>{1, -1, -1, 0}));
  EXPECT_EQ(parents_npy_path("x/run.npy"), "x/run-parents.npy");
}

TEST_F(io_write_distances, npy_doubles_keep_infinity) {
  const std::vector<double> distances{0, inf, 0.75};
  write_distances<double>(path("d.npy"), distances, {}, 0, 0);
  const apps::numeric_array read = read_npy(path("d.npy"));
  ASSERT_EQ(read.type(), apps::dtype::f64);
  const auto values = read.as<double>();
  EXPECT_EQ(std::vector<double>(values.begin(), values.end()), distances);
  EXPECT_FALSE(std::filesystem::exists(path("d-parents.npy")));
  EXPECT_EQ(read_file(path("d.npy")).substr(0, 6), "\x93NUMPY");
}

TEST_F(io_write_distances, standard_output_is_text) {
  const std::vector<std::uint64_t> distances{0, 2};
  testing::internal::CaptureStdout();
  write_distances<std::uint64_t>("-", distances, {}, 0, 1);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "# source 1\n1 0\n2 2\n");
}

TEST_F(io_write_distances, a_failure_leaves_nothing_behind) {
  const std::vector<std::uint64_t> distances{0, 2};
  EXPECT_THROW(write_distances<std::uint64_t>(path("missing/d.txt"), distances, {}, 0, 0), apps::app_error);
  EXPECT_THROW(write_distances<std::uint64_t>(path("missing/d.npy"), distances, {}, 0, 0), apps::app_error);
  EXPECT_TRUE(entries().empty());
  const std::vector<std::int64_t> wrong_size{0};
  EXPECT_THROW(write_distances<std::uint64_t>(path("d.txt"), distances, wrong_size, 0, 0), std::invalid_argument);
  EXPECT_TRUE(entries().empty());
}

}  // namespace
}  // namespace bkt::sssp
