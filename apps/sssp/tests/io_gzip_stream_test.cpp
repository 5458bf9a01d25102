// gzip inputs are inflated a window at a time and parsed as they come: the graph must not depend
// on where the windows fall (tiny windows cut every header, comment block and line), errors must
// name the right line however many windows came before, and the inflating stops at the first error.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <zlib.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <thread>

#include "bkt_apps_test/temp_dir.hpp"
#include "bkt_apps/app_error.hpp"
#include "io/input_file.hpp"
#include "io/load_graph.hpp"
#include "gzip_bytes.hpp"

namespace bkt::sssp {
namespace {

using test::gzip_bytes;

/// A read function over `bytes` (as a file would give them, as much as asked for each call);
/// `offered` counts the bytes handed out.
auto reader_of(const std::string& bytes, std::size_t& offered) {
  return [&bytes, &offered](char* into, std::size_t capacity) {
    const std::size_t size = std::min(capacity, bytes.size() - offered);
    std::copy_n(bytes.data() + offered, size, into);
    offered += size;
    return size;
  };
}

template <class Weight>
void expect_same_csr(const loaded_graph& got, const loaded_graph& want) {
  ASSERT_TRUE(std::holds_alternative<csr_graph<Weight>>(got.graph));
  const auto& a = std::get<csr_graph<Weight>>(got.graph);
  const auto& b = std::get<csr_graph<Weight>>(want.graph);
  EXPECT_EQ(a.offsets, b.offsets);
  EXPECT_EQ(a.targets, b.targets);
  EXPECT_EQ(a.weights, b.weights);
  EXPECT_EQ(got.index_base, want.index_base);
  EXPECT_EQ(got.symmetric, want.symmetric);
}

class io_gzip_stream : public apps::test::temp_dir_test {
 protected:
  static load_options windows_of(std::int64_t bytes, int threads = 2) {
    load_options options;
    options.use_cache = false;
    options.threads = threads;
    options.gzip_window_bytes = bytes;
    return options;
  }
  /// Loads `text` plain and gzip-compressed in windows of several sizes; expects the same graph.
  template <class Weight>
  void expect_window_independent(const std::string& name, const std::string& text) {
    const loaded_graph plain = load_graph(write_file(name, text), windows_of(1 << 20));
    const std::string packed = write_file(name + ".gz", gzip_bytes(text));
    for (const std::int64_t window : {1, 7, 64, 1000, 1 << 20}) {
      SCOPED_TRACE("window " + std::to_string(window));
      expect_same_csr<Weight>(load_graph(packed, windows_of(window)), plain);
    }
  }
  /// Expects loading `text` gzip-compressed in windows of `window` bytes to fail with "FILE:LINE: problem".
  void expect_error(const std::string& name, const std::string& text, std::int64_t window, int line,
                    const std::string& problem) {
    const std::string file = write_file(name, gzip_bytes(text));
    try {
      load_graph(file, windows_of(window));
      ADD_FAILURE() << "no error";
    } catch (const apps::app_error& error) {
      EXPECT_EQ(std::string(error.what()), file + ":" + std::to_string(line) + ": " + problem);
    }
  }
};

std::string numbered_lines(const std::string& prefix, int count, int vertices, bool weights) {
  std::string text;
  for (int i = 0; i < count; ++i)
    text += prefix + std::to_string(i % vertices + (prefix.empty() ? 0 : 1)) + " " +
            std::to_string((i * 7 + 3) % vertices + (prefix.empty() ? 0 : 1)) +
            (weights ? " " + std::to_string(i % 100) : "") + "\n";
  return text;
}

TEST_F(io_gzip_stream, dimacs_with_long_comment_blocks) {
  std::string comments;
  for (int i = 0; i < 300; ++i) comments += "c comment " + std::to_string(i) + "\n";
  expect_window_independent<std::uint32_t>("g.gr", comments + "p sp 500 3000\n" + numbered_lines("a ", 1500, 500, true) +
                                                       comments + numbered_lines("a ", 1500, 500, true));
}

TEST_F(io_gzip_stream, matrix_market_symmetric_and_real) {
  std::string comments;
  for (int i = 0; i < 300; ++i) comments += "% comment " + std::to_string(i) + "\n";
  std::string entries;
  for (int i = 0; i < 2000; ++i)
    entries += std::to_string(i % 300 + 1) + " " + std::to_string(i * 13 % 300 + 1) + " " + std::to_string(i % 17) + ".25\n";
  expect_window_independent<float>("m.mtx", "%%MatrixMarket matrix coordinate real symmetric\n" + comments +
                                                "300 300 2000\n" + entries);
}

TEST_F(io_gzip_stream, edge_lists_with_comments_before_the_first_line_and_a_late_fraction) {
  std::string comments;
  for (int i = 0; i < 300; ++i) comments += "# comment " + std::to_string(i) + "\n";
  expect_window_independent<std::uint32_t>("e.txt", comments + numbered_lines("", 3000, 700, true));
  expect_window_independent<std::uint32_t>("u.txt", comments + numbered_lines("", 3000, 700, false));
  // One fraction at the end makes every weight a float, in whatever window it comes.
  expect_window_independent<float>("f.txt", numbered_lines("", 3000, 700, true) + "1 2 0.5\n");
  expect_window_independent<std::uint32_t>("c.txt", comments);  // no edges at all
}

TEST_F(io_gzip_stream, a_line_longer_than_the_window) {
  expect_window_independent<std::uint32_t>("long.txt", "0 1 2\n# " + std::string(100000, 'x') + "\n1 2 3\n");
}

TEST_F(io_gzip_stream, errors_name_the_line_in_any_window) {
  std::string text = "p sp 500 3000\n" + numbered_lines("a ", 3000, 500, true);
  text.replace(text.find("a 12 "), 1, "b");  // line 13
  expect_error("bad.gr.gz", text, 64, 13, "expected 'a U V W', found 'b 12 81 11'");
  expect_error("many.gr.gz", "p sp 9 2\n" + numbered_lines("a ", 3000, 9, true), 64, 4,
               "more arcs than the 2 the header declares");
  expect_error("few.gr.gz", "c x\np sp 9 3000\n" + numbered_lines("a ", 2999, 9, true), 64, 2,
               "the header declares 3000 arcs but the file has 2999");
  expect_error("none.gr.gz", "c only\nc comments\n", 4, 2, "no problem line 'p sp N M'");
  // An integer weight of 2^32 in an early window is an error once no fraction has come by the end.
  expect_error("big.txt.gz", "0 1 4294967296\n" + numbered_lines("", 3000, 700, true), 64, 1,
               "weight 4294967296 is too large: integer weights must be below 2^32");
}

TEST_F(io_gzip_stream, inflating_stops_at_the_first_bad_window) {
  // Hex digits of a pseudo-random sequence compress about 2:1, so the stream is several pieces long.
  std::string text = "p sp 3 2\nbad line\n";
  std::uint64_t state = 1;
  const char* const hex = "0123456789abcdef";
  for (int i = 0; i < 150000; ++i) {
    text += "c ";
    for (int digit = 0; digit < 40; ++digit) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      text += hex[state >> 60];
    }
    text += '\n';
  }
  const std::string compressed = gzip_bytes(text);
  std::size_t offered = 0;
  const auto read = reader_of(compressed, offered);
  int windows = 0;
  detail::read_settings settings;
  settings.window_bytes = 4096;
  EXPECT_THROW(detail::gunzip_windows(read, "bomb.gz", settings,
                                      [&](const detail::text_window& window) {
                                        ++windows;
                                        EXPECT_EQ(window.first_line, 1);
                                        EXPECT_LE(window.text.size(), 4096u);
                                        throw apps::app_error("stop at the first window");
                                      }),
               apps::app_error);
  EXPECT_EQ(windows, 1);
  // zlib was given one piece of input (1 MiB), not the whole stream.
  EXPECT_GT(compressed.size(), std::size_t{2} << 20);
  EXPECT_EQ(offered, std::size_t{1} << 20);
}

TEST_F(io_gzip_stream, a_pipe_is_read_whole_and_never_cached) {
  const std::string text = "p sp 3 2\na 1 2 5\na 2 3 6\n";
  for (const bool packed : {false, true}) {
    SCOPED_TRACE(packed ? "gzip" : "plain");
    const std::string fifo = path(packed ? "pipe.gr.gz" : "pipe.gr");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::thread writer([&] { std::ofstream(fifo, std::ios::binary) << (packed ? gzip_bytes(text) : text); });
    load_options options = windows_of(4);
    options.use_cache = true;
    options.min_cache_text_bytes = 0;
    const loaded_graph loaded = load_graph(fifo, options);
    writer.join();
    EXPECT_FALSE(loaded.from_cache);
    EXPECT_EQ(loaded.cache_path, "");
    const auto& graph = std::get<csr_graph<std::uint32_t>>(loaded.graph);
    EXPECT_EQ(graph.offsets, (std::vector<std::int64_t>{0, 1, 2, 2}));
    EXPECT_EQ(graph.weights, (std::vector<std::uint32_t>{5, 6}));
  }
  EXPECT_EQ(entries().size(), 2u);  // the two pipes, no cache beside them
}

TEST_F(io_gzip_stream, windows_hand_over_whole_lines_with_their_numbers) {
  std::string text;
  for (int i = 1; i <= 500; ++i) text += "line " + std::to_string(i) + "\n";
  text += "last line without a newline";
  const std::string compressed = gzip_bytes(text);
  std::size_t offered = 0;
  const auto read = reader_of(compressed, offered);
  std::string joined;
  std::int64_t next_line = 1;
  detail::read_settings settings;
  settings.window_bytes = 50;
  const std::int64_t total = detail::gunzip_windows(read, "lines.gz", settings, [&](const detail::text_window& window) {
    EXPECT_EQ(window.first_line, next_line);
    const std::string piece(window.text.view());
    EXPECT_EQ(window.text.data()[window.text.size()], '\n');  // the sentinel
    if (!window.last) {
      EXPECT_TRUE(piece.ends_with('\n')) << piece;
    }
    next_line += std::count(piece.begin(), piece.end(), '\n');
    joined += piece;
  });
  EXPECT_EQ(joined, text);
  EXPECT_EQ(total, static_cast<std::int64_t>(text.size()));
}

}  // namespace
}  // namespace bkt::sssp
