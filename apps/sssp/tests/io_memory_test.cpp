// Tiny files that imply huge graphs are refused as soon as what they imply is known (a header, a
// vertex id, the edges read so far, the file's size), before it is allocated; and a gzip file is
// inflated as it is parsed, so that a bad line stops it early. Budgets are small so the tests are.
#include <gtest/gtest.h>
#include <zlib.h>

#include <string>

#include "bkt_apps_test/temp_dir.hpp"
#include "bkt_apps/app_error.hpp"
#include "io/load_graph.hpp"
#include "gzip_bytes.hpp"

namespace bkt::sssp {
namespace {

using test::gzip_bytes;

class io_memory : public apps::test::temp_dir_test {
 protected:
  static load_options budget(std::int64_t bytes) {
    load_options options;
    options.use_cache = false;
    options.threads = 2;
    options.memory_budget = bytes;
    return options;
  }
  /// Expects the load to fail with a message that starts with `start` and names the budget.
  static void expect_refused(const std::string& file, const load_options& options, const std::string& start) {
    try {
      load_graph(file, options);
      ADD_FAILURE() << "no error; expected: " << start;
    } catch (const apps::app_error& error) {
      const std::string message = error.what();
      EXPECT_EQ(message.rfind(start, 0), 0u) << message;
      EXPECT_NE(message.find(" of host memory, more than the "), std::string::npos) << message;
      EXPECT_TRUE(message.ends_with(" available (--max-memory)")) << message;
      EXPECT_EQ(error.code(), apps::exit_bad_input);
      EXPECT_LT(message.size(), 300u);
    }
  }
};

TEST_F(io_memory, an_edge_list_naming_vertex_2_to_the_31) {
  // 13 bytes that would have allocated 17 GB of offsets.
  const std::string tiny = write_file("tiny.txt", "0 2147483648\n");
  expect_refused(tiny, budget(1 << 20), tiny + ":1: vertex 2147483648 (a graph of 2147483649 vertices) needs 85.9 GB");
  // The line is found in any chunk of a larger file, and the first one in file order is named.
  std::string text;
  for (int i = 0; i < 100000; ++i) text += std::to_string(i % 500) + " " + std::to_string(i % 499) + "\n";
  text += "7 3000000000\n1 4000000000\n";
  const std::string late = write_file("late.txt", text);
  expect_refused(late, budget(1 << 20), late + ":100001: vertex 3000000000 (a graph of 3000000001 vertices) needs");
  // Within the budget the same ids load (2^20 / 40 bytes a vertex: up to 26214 vertices).
  const loaded_graph fits = load_graph(write_file("fits.txt", "0 26213\n"), budget(1 << 20));
  EXPECT_EQ(std::get<csr_graph<std::uint32_t>>(fits.graph).num_vertices(), 26214);
}

TEST_F(io_memory, headers_that_declare_too_much) {
  const std::string dimacs = write_file("wide.gr", "c x\np sp 300000000 1\na 1 2 3\n");
  expect_refused(dimacs, budget(std::int64_t{1} << 30), dimacs + ":2: a graph of 300000000 vertices and 1 arcs needs 12.0 GB");
  const std::string arcs = write_file("long.gr", "p sp 3 2000000000\na 1 2 3\n");
  expect_refused(arcs, budget(std::int64_t{1} << 30), arcs + ":1: a graph of 3 vertices and 2000000000 arcs needs");
  const std::string matrix = write_file("m.mtx",
                                        "%%MatrixMarket matrix coordinate pattern symmetric\n"
                                        "% c\n1000 1000 100000000\n1 2\n");
  expect_refused(matrix, budget(64 << 20), matrix + ":3: a graph of 1000 vertices and 100000000 entries needs");
  // A header in budget loads.
  const loaded_graph fits = load_graph(write_file("fits.gr", "p sp 3 1\na 1 2 3\n"), budget(1 << 20));
  EXPECT_EQ(std::get<csr_graph<std::uint32_t>>(fits.graph).num_edges(), 1);
}

TEST_F(io_memory, a_file_larger_than_the_budget_is_not_read) {
  const std::string big = write_file("big.txt", std::string(3 << 20, '#'));
  expect_refused(big, budget(1 << 20), big + ": reading the file needs 3.15 MB");
}

TEST_F(io_memory, the_graph_as_parsed_is_checked_before_it_is_built) {
  // Every id is affordable alone, but 20000 vertices and 60000 edges take more than 1 MB.
  std::string text;
  for (int i = 0; i < 60000; ++i) text += std::to_string(i % 20000) + " " + std::to_string((i * 7) % 20000) + "\n";
  const std::string file = write_file("many.txt", text);
  expect_refused(file, budget(1 << 20), file + ": a graph of 20000 vertices and 60000 edges needs");
}

TEST_F(io_memory, gzip_edges_are_checked_window_by_window) {
  std::string text;
  for (int i = 0; i < 200000; ++i) text += std::to_string(i % 1000) + " " + std::to_string(i % 997) + "\n";
  const std::string file = write_file("many.txt.gz", gzip_bytes(text));
  load_options options = budget(1 << 20);
  options.gzip_window_bytes = 64 << 10;
  try {
    load_graph(file, options);
    ADD_FAILURE() << "no error";
  } catch (const apps::app_error& error) {
    // 1 MB holds the edges of far fewer lines than the file has: the refusal names an early one.
    const std::string message = error.what();
    EXPECT_EQ(message.rfind(file + ":", 0), 0u) << message;
    EXPECT_NE(message.find(" edges by this line needs "), std::string::npos) << message;
    const std::int64_t line = std::stoll(message.substr(file.size() + 1));
    EXPECT_GT(line, 1000);
    EXPECT_LT(line, 100000);
  }
}

TEST_F(io_memory, a_gzip_bomb_with_a_bad_third_line_stops_there) {
  // 1000 members of 1 MiB of comments behind a bad third line: 1 GB of text in about 1 MB.
  std::string comments;
  while (comments.size() < (1u << 20)) comments += "c " + std::string(77, 'z') + "\n";
  const std::string filler = gzip_bytes(comments);
  std::string bytes = gzip_bytes("p sp 3 2\na 1 2 3\nx bad\n");
  for (int i = 0; i < 1000; ++i) bytes += filler;
  const std::string file = write_file("bomb.gr.gz", bytes);
  load_options options = budget(256 << 20);  // far below the 1 GB the text inflates to
  options.gzip_window_bytes = 1 << 20;
  try {
    load_graph(file, options);
    ADD_FAILURE() << "no error";
  } catch (const apps::app_error& error) {
    EXPECT_EQ(std::string(error.what()), file + ":3: expected 'a U V W', found 'x bad'");
  }
}

TEST_F(io_memory, a_line_longer_than_the_budget_is_refused) {
  const std::string file = write_file("long.txt.gz", gzip_bytes("0 1\n# " + std::string(4 << 20, 'y') + "\n"));
  load_options options = budget(3 << 20);
  options.gzip_window_bytes = 1 << 20;
  expect_refused(file, options, file + ":2: a line of over ");
}

}  // namespace
}  // namespace bkt::sssp
