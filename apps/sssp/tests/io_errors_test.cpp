// Every kind of bad input: one app_error (exit 1) whose message names the file and, for bad
// text, the line: "FILE:LINE: problem". Each case runs on 1 and 4 threads.
#include <gtest/gtest.h>
#include <zlib.h>

#include <string>

#include "bkt_apps_test/temp_dir.hpp"
#include "bkt_apps/app_error.hpp"
#include "io/load_graph.hpp"

namespace bkt::sssp {
namespace {

class io_errors : public apps::test::temp_dir_test {
 protected:
  /// Expects loading `file` to fail with exactly `message`.
  static void expect_message(const std::string& file, const std::string& message, load_options options = {}) {
    options.use_cache = false;
    for (const int threads : {1, 4}) {
      options.threads = threads;
      try {
        load_graph(file, options);
        ADD_FAILURE() << "no error; expected: " << message;
      } catch (const apps::app_error& error) {
        EXPECT_EQ(std::string(error.what()), message) << "threads " << threads;
        EXPECT_EQ(error.code(), apps::exit_bad_input);
      }
    }
  }
  /// Writes `text` to `name` and expects "FILE:LINE: problem".
  void expect_error(const std::string& name, const std::string& text, int line, const std::string& problem,
                    const load_options& options = {}) {
    const std::string file = write_file(name, text);
    expect_message(file, file + ":" + std::to_string(line) + ": " + problem, options);
  }
};

constexpr const char* pattern_banner = "%%MatrixMarket matrix coordinate pattern general\n";
constexpr const char* real_banner = "%%MatrixMarket matrix coordinate real general\n";

TEST_F(io_errors, negative_weights) {
  expect_error("a.gr", "p sp 3 1\na 1 2 -3\n", 2, "negative weight -3");
  expect_error("b.txt", "0 1 2\n1 2 -3\n", 2, "negative weight -3");
  expect_error("c.txt", "0 1 2.5\n1 2 -1.5\n", 2, "negative weight -1.5");
  expect_error("d.mtx", std::string(real_banner) + "2 2 1\n1 2 -0.5\n", 3, "negative weight -0.5");
}

TEST_F(io_errors, vertex_ids_out_of_range) {
  expect_error("zero.gr", "p sp 3 1\na 0 2 1\n", 2, "vertex 0 is out of range 1..3");
  expect_error("past.gr", "p sp 3 1\na 1 4 1\n", 2, "vertex 4 is out of range 1..3");
  expect_error("past.mtx", std::string(pattern_banner) + "3 3 1\n1 4\n", 3, "vertex 4 is out of range 1..3");
  expect_error("zero.mtx", std::string(pattern_banner) + "3 3 1\n0 1\n", 3, "vertex 0 is out of range 1..3");
  expect_error("big.txt", "0 4294967295\n", 1, "vertex 4294967295 is out of range 0..4294967294");
  expect_error("negative.txt", "0 1\n-1 2\n", 2, "vertex -1 is out of range 0..4294967294");
  expect_error("huge.txt", "0 99999999999999999999\n", 1, "vertex 99999999999999999999 is out of range 0..4294967294");
}

TEST_F(io_errors, too_many_vertices) {
  expect_error("n.gr", "p sp 4294967296 0\n", 1, "4294967296 vertices: at most 4294967295 are supported");
  expect_error("n.mtx", std::string(pattern_banner) + "4294967296 4294967296 0\n", 2,
               "4294967296 vertices: at most 4294967295 are supported");
}

TEST_F(io_errors, arc_count_differs_from_the_problem_line) {
  expect_error("few.gr", "c x\np sp 3 3\na 1 2 1\na 2 3 1\n", 2, "the header declares 3 arcs but the file has 2");
  expect_error("many.gr", "p sp 3 2\na 1 2 1\na 2 3 1\nc x\na 3 1 1\n", 5, "more arcs than the 2 the header declares");
  expect_error("few.mtx", std::string(pattern_banner) + "% x\n3 3 2\n1 2\n", 3,
               "the header declares 2 entries but the file has 1");
  expect_error("many.mtx", std::string(pattern_banner) + "3 3 1\n1 2\n% x\n2 3\n", 5,
               "more entries than the 1 the header declares");
}

TEST_F(io_errors, unparsable_lines) {
  expect_error("a.gr", "p sp 3 1\nx 1 2 3\n", 2, "expected 'a U V W', found 'x 1 2 3'");
  expect_error("b.gr", "p sp 3 1\na 1 x 3\n", 2, "bad vertex id 'x': expected a non-negative integer");
  expect_error("c.gr", "p sp 3 1\na 1 2\n", 2, "expected 'a U V W', found 'a 1 2'");
  expect_error("d.gr", "p sp 3 1\na 1 2 3 4\n", 2, "expected 'a U V W', found 'a 1 2 3 4'");
  expect_error("e.gr", "p sp 3 1\na 1 2 1.5\n", 2, "weight 1.5 is not an integer");
  expect_error("f.gr", "p sp 3 1\na 1 2 w\n", 2, "bad weight 'w': expected a non-negative number");
  expect_error("g.txt", "0 1\n0 1x\n", 2, "bad vertex id '1x': expected a non-negative integer");
  expect_error("h.mtx", std::string(pattern_banner) + "3 3 1\n1 2 3\n", 3, "expected 'i j', found '1 2 3'");
  expect_error("i.mtx", "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2 2.5\n", 3,
               "weight 2.5 is not an integer");
  expect_error("j.mtx", std::string(pattern_banner) + "3 3\n", 2, "expected 'rows cols nnz', found '3 3'");
  expect_error("k.mtx", std::string(pattern_banner) + "% only comments\n", 2, "no size line 'rows cols nnz'");
}

TEST_F(io_errors, problem_line_missing_or_repeated) {
  expect_error("a.gr", "c x\na 1 2 3\n", 2, "arc before the problem line 'p sp N M'");
  expect_error("b.gr", "c only a comment\n", 1, "no problem line 'p sp N M'");
  expect_error("c.gr", "p aux sp ss 1\n", 1, "expected 'p sp N M', found 'p aux sp ss 1'");
  expect_error("d.gr", "p sp 2 0\np sp 2 0\n", 2, "a second problem line");
  expect_error("e.gr", "", 1, "no problem line 'p sp N M'");
}

TEST_F(io_errors, matrix_market_banner_and_shape) {
  expect_error("square.mtx", std::string(pattern_banner) + "3 4 0\n", 2,
               "the matrix is 3 x 4: a graph's adjacency matrix must be square");
  expect_error("no_banner.mtx", "3 3 0\n", 1,
               "not a MatrixMarket file: the first line must be '%%MatrixMarket matrix coordinate "
               "real|integer|pattern general|symmetric'");
  expect_error("array.mtx", "%%MatrixMarket matrix array real general\n3 3\n", 1,
               "dense MatrixMarket 'array' files are not supported: a graph needs 'coordinate'");
  expect_error("complex.mtx", "%%MatrixMarket matrix coordinate complex general\n1 1 0\n", 1,
               "complex MatrixMarket values are not supported: expected real, integer or pattern");
  expect_error("hermitian.mtx", "%%MatrixMarket matrix coordinate real hermitian\n1 1 0\n", 1,
               "hermitian MatrixMarket matrices are not supported: expected general or symmetric");
  expect_error("skew.mtx", "%%MatrixMarket matrix coordinate real skew-symmetric\n1 1 0\n", 1,
               "skew-symmetric MatrixMarket matrices are not supported: expected general or symmetric");
  expect_error("short.mtx", "%%MatrixMarket matrix coordinate real\n1 1 0\n", 1,
               "expected '%%MatrixMarket matrix coordinate real|integer|pattern general|symmetric', found "
               "'%%MatrixMarket matrix coordinate real'");
}

TEST_F(io_errors, non_finite_and_oversized_weights) {
  expect_error("nan.txt", "0 1 nan\n", 1, "weight nan is not a finite number");
  expect_error("inf.mtx", std::string(real_banner) + "2 2 1\n1 2 inf\n", 3, "weight inf is not a finite number");
  expect_error("minus_inf.txt", "0 1 1\n0 1 -inf\n", 2, "weight -inf is not a finite number");
  expect_error("float.mtx", std::string(real_banner) + "2 2 1\n1 2 1e39\n", 3, "weight 1e39 is too large for a float");
  expect_error("int.gr", "p sp 2 1\na 1 2 4294967296\n", 2,
               "weight 4294967296 is too large: integer weights must be below 2^32");
  expect_error("int.txt", "0 1 1\n0 1 4294967296\n1 0 2\n", 2,
               "weight 4294967296 is too large: integer weights must be below 2^32");
}

TEST_F(io_errors, edge_list_lines_must_match_the_first) {
  expect_error("a.txt", "# c\n0 1\n1 2 3\n", 3, "expected 'u v', found '1 2 3'");
  expect_error("b.txt", "0 1 3\n1 2\n", 2, "expected 'u v w', found '1 2'");
  expect_error("c.txt", "0 1 2 3\n", 1, "expected 'u v' or 'u v w', found '0 1 2 3'");
  expect_error("d.txt", "0\n", 1, "expected 'u v' or 'u v w', found '0'");
  expect_error("e.txt", "0,1,\n", 1, "expected 'u v', found '0,1,'");
  expect_error("f.csv", "0,1\n0,,1\n", 2, "empty field: expected 'u v'");
}

TEST_F(io_errors, the_first_error_in_file_order_wins_across_chunks) {
  std::string text;
  for (int i = 0; i < 200000; ++i) text += std::to_string(i % 1000) + " " + std::to_string((i * 7) % 1000) + "\n";
  std::string late = text;
  late.replace(late.rfind('\n', late.size() - 2) + 1, 1, "x");  // the last line becomes "x..."
  expect_error("late.txt", late, 200000, "bad vertex id 'x99': expected a non-negative integer");
  std::string two = late;
  const std::size_t line_150001 = [&] {
    std::size_t at = 0;
    for (int line = 1; line < 150001; ++line) at = two.find('\n', at) + 1;
    return at;
  }();
  two.insert(line_150001, "-");
  expect_error("two.txt", two, 150001, "vertex -" + std::to_string(150000 % 1000) + " is out of range 0..4294967294");
}

TEST_F(io_errors, messages_escape_and_cut_what_they_echo) {
  // Terminal escapes in a file must not reach the terminal raw.
  expect_error("esc.txt", "0 1\n0 \x1b[31mred\n", 2, "bad vertex id '\\x1b[31mred': expected a non-negative integer");
  expect_error("esc.gr", "p sp 3 1\n\x1b]0;title\x07 1 2 3\n", 2,
               "expected 'a U V W', found '\\x1b]0;title\\x07 1 2 3'");
  expect_error("esc.mtx", "%%MatrixMarket \x9b" "2J coordinate real general\n1 1 0\n", 1,
               "MatrixMarket object '\\x9b2j' is not a matrix");
  // A 5 MB token gives a message of a line, with the token's length.
  const std::string token(5 << 20, '7');
  const std::string cases[][2] = {
      {"long_vertex.txt", "0 1\n0 " + token + "x\n"},
      {"long_digits.txt", "0 1\n0 " + token + "\n"},
      {"long_weight.gr", "p sp 3 1\na 1 2 1." + token + "\n"},
      {"long_line.gr", "p sp 3 1\n" + token + "\n"},
      {"long_float.txt", "0 1 1\n0 1 -" + token + ".5\n"},
  };
  for (const auto& [name, text] : cases) {
    SCOPED_TRACE(name);
    const std::string file = write_file(name, text);
    load_options options;
    options.use_cache = false;
    try {
      load_graph(file, options);
      ADD_FAILURE() << "no error";
    } catch (const apps::app_error& error) {
      const std::string message = error.what();
      EXPECT_EQ(message.rfind(file + ":2: ", 0), 0u) << message.substr(0, 300);
      EXPECT_LT(message.size(), file.size() + 200) << message.substr(0, 300);
      EXPECT_NE(message.find("... (524288"), std::string::npos) << message.substr(0, 300);  // the token's length
    }
  }
}

TEST_F(io_errors, missing_file_and_directory) {
  expect_message(path("missing.gr"), path("missing.gr") + ": cannot open: No such file or directory");
  expect_message(dir_.string(), dir_.string() + ": is a directory");
}

TEST_F(io_errors, corrupt_and_truncated_gzip) {
  const std::string corrupt = write_file("corrupt.gr.gz", "this is not gzip data at all");
  expect_message(corrupt, corrupt + ": corrupt gzip data: incorrect header check");

  std::string text = "p sp 1000 100000\n";
  for (int i = 0; i < 100000; ++i) text += "a " + std::to_string(i % 1000 + 1) + " " + std::to_string(i % 997 + 1) + " 5\n";
  const std::string whole = path("whole.gr.gz");
  gzFile out = gzopen(whole.c_str(), "wb");
  ASSERT_NE(out, nullptr);
  gzwrite(out, text.data(), static_cast<unsigned>(text.size()));
  gzclose(out);
  const std::string bytes = read_file(whole);
  const std::string truncated = write_file("truncated.gr.gz", bytes.substr(0, bytes.size() / 2));
  expect_message(truncated, truncated + ": truncated gzip data (the file ends inside the compressed stream)");
  std::string flipped = bytes;
  flipped[flipped.size() / 2] = static_cast<char>(flipped[flipped.size() / 2] ^ 0x55);
  const std::string damaged = write_file("damaged.gr.gz", flipped);
  try {
    load_options options;
    options.use_cache = false;
    load_graph(damaged, options);
    ADD_FAILURE() << "no error";
  } catch (const apps::app_error& error) {
    EXPECT_EQ(std::string(error.what()).rfind(damaged + ": ", 0), 0u) << error.what();
  }
}

}  // namespace
}  // namespace bkt::sssp
