// bkt-sssp's refusals and notes: --max-memory and tiny files that imply huge graphs, the cache at
// the tool's 16 MiB threshold (with an edit that keeps the input's size and time), --delta values,
// a sources file without sources, and GPU-only options where no GPU is usable.
#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>

#include "tool_fixture.hpp"
#include "gzip_bytes.hpp"

namespace bkt::sssp::test {
namespace {

namespace fs = std::filesystem;

/// Hides every GPU from the tool, on any machine.
const std::vector<std::string> no_gpu = {"CUDA_VISIBLE_DEVICES="};

class tool_limits : public tool_test {
 protected:
  /// Expects exit `code`, one stderr line starting "bkt-sssp: `start`", nothing on stdout.
  static void expect_one_line(const tool_result& result, int code, const std::string& start) {
    EXPECT_EQ(result.exit_code, code) << result.err;
    EXPECT_EQ(result.err.rfind("bkt-sssp: " + start, 0), 0u) << result.err;
    EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
    EXPECT_EQ(result.out, "");
  }
};

TEST_F(tool_limits, tiny_files_that_imply_huge_graphs_are_refused_at_once) {
  const std::string tiny = write("tiny.txt", "0 2147483648\n");
  tool_result result = run({tiny, "--cpu", "--max-memory", "1G", "-o", path("d.txt")});
  expect_one_line(result, 1, tiny + ":1: vertex 2147483648 (a graph of 2147483649 vertices) needs 85.9 GB of host memory");
  EXPECT_NE(result.err.find("more than the 1.07 GB available (--max-memory)"), std::string::npos) << result.err;

  const std::string wide = write("wide.gr", "p sp 300000000 1\na 1 2 3\n");
  result = run({wide, "--cpu", "--max-memory", "2G"});
  expect_one_line(result, 1, wide + ":1: a graph of 300000000 vertices and 1 arcs needs 12.0 GB of host memory");

  // 1 GB of text in 1 MB whose third line is bad: found without inflating the rest.
  std::string comments;
  while (comments.size() < (1u << 20)) comments += "c " + std::string(77, 'z') + "\n";
  const std::string filler = gzip_bytes(comments);
  std::string bomb = gzip_bytes("p sp 3 2\na 1 2 3\nx\n");
  for (int i = 0; i < 1000; ++i) bomb += filler;
  const std::string packed = write("bomb.gr.gz", bomb);
  result = run({packed, "--cpu", "--max-memory", "512M"});
  expect_one_line(result, 1, packed + ":3: expected 'a U V W', found 'x'");
  EXPECT_EQ(entries(), (std::vector<std::string>{"bomb.gr.gz", "tiny.txt", "wide.gr"}));  // no output, no cache
}

TEST_F(tool_limits, max_memory_takes_a_size) {
  const std::string rome = data_graph("rome99.gr");
  for (const char* bad : {"abc", "0", "-5", "12Q"}) {
    SCOPED_TRACE(bad);
    expect_one_line(run({rome, "--cpu", "--max-memory", bad}), 2, "--max-memory: ");
  }
  const tool_result fits = run({rome, "--cpu", "--no-cache", "--max-memory", "64M"});
  EXPECT_EQ(fits.exit_code, 0) << fits.err;
  const tool_result tight = run({rome, "--cpu", "--no-cache", "--max-memory", "100K"});
  expect_one_line(tight, 1, rome + ":");
}

TEST_F(tool_limits, delta_must_be_a_finite_positive_number) {
  const std::string rome = data_graph("rome99.gr");
  for (const char* bad : {"nan", "NaN", "-1", "0", "-0", "inf", "-inf", "1e999", "x"}) {
    SCOPED_TRACE(bad);
    expect_one_line(run({rome, "--cpu", std::string("--delta=") + bad}), 2, "--delta: ");
  }
}

TEST_F(tool_limits, a_sources_file_without_sources_fails) {
  const std::string none = write("none.ss", "c nothing to run\np aux sp ss 0\n");
  expect_one_line(run({data_graph("rome99.gr"), "--cpu", "--no-cache", "--sources", none}), 1,
                  none + ":2: no sources: the problem line declares 0");
}

TEST_F(tool_limits, gpu_options_where_no_gpu_is_usable) {
  const std::string rome = data_graph("rome99.gr");
  // A GPU algorithm asked for by name runs as Dijkstra on the CPU, and says so.
  tool_result result = run({rome, "--no-cache", "--algorithm", "near-far"}, "", no_gpu);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err.rfind("bkt-sssp: warning: no usable GPU", 0), 0u) << result.err;
  EXPECT_NE(result.err.find("--algorithm near-far runs on the GPU only; running Dijkstra on the CPU"), std::string::npos)
      << result.err;
  EXPECT_EQ(summary_rows(result.out).at(0).algorithm, "dijkstra-cpu");
  result = run({rome, "--no-cache", "--cpu", "--algorithm", "bellman-ford"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err.rfind("bkt-sssp: warning: --cpu: --algorithm bellman-ford runs on the GPU only", 0), 0u) << result.err;
  // --delta with nothing that uses it.
  result = run({rome, "--no-cache", "--delta", "5"}, "", no_gpu);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err.rfind("bkt-sssp: warning: --delta has no effect on dijkstra-cpu (no usable GPU", 0), 0u) << result.err;
  result = run({rome, "--no-cache", "--cpu", "--delta", "5"});
  EXPECT_EQ(result.err, "bkt-sssp: warning: --delta has no effect on dijkstra-cpu\n");
  // No silent default either: without --algorithm there is no warning (the CPU is the documented fallback).
  result = run({rome, "--no-cache"}, "", no_gpu);
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.err, "");
  // --verify cannot verify without a GPU run: it fails rather than passing silently.
  expect_one_line(run({rome, "--no-cache", "--verify", "-o", path("d.txt")}, "", no_gpu), 3, "--verify: no usable GPU");
  expect_one_line(run({rome, "--no-cache", "--verify", "--cpu"}), 2, "--verify compares a GPU run");
  expect_one_line(run({rome, "--no-cache", "--verify", "--algorithm", "dijkstra-cpu"}), 2, "--verify compares a GPU run");
  EXPECT_TRUE(entries().empty());
}

TEST_F(tool_limits, a_large_input_is_cached_and_an_edit_that_keeps_size_and_time_is_noticed) {
  // Over the 16 MiB threshold by a comment; the graph is 0 -> 1 (5), 1 -> 2 (6).
  const std::string padding = "# " + std::string(std::size_t{16} << 20, 'x') + "\n";
  const std::string input = write("big.txt", padding + "0 1 5\n1 2 6\n");
  const std::string cache = (dir_ / "cache").string();
  const tool_result first = run({input, "--cpu", "--cache", cache});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_NE(graph_line(first.out).find("parsed"), std::string::npos) << first.out;
  const tool_result second = run({input, "--cpu", "--cache", cache});
  EXPECT_NE(graph_line(second.out).find("from cache"), std::string::npos) << second.out;
  EXPECT_EQ(summary_rows(second.out).at(0).checksum, "16");  // 5 + 11

  // cp -p / rsync -t: new bytes, the same size and modification time.
  const fs::file_time_type stamp = fs::last_write_time(input);
  write_file(input, padding + "0 2 9\n2 1 7\n");
  fs::last_write_time(input, stamp);
  const tool_result edited = run({input, "--cpu", "--cache", cache, "--verbose"});
  ASSERT_EQ(edited.exit_code, 0) << edited.err;
  EXPECT_NE(graph_line(edited.out).find("parsed"), std::string::npos) << edited.out;
  EXPECT_NE(edited.err.find("cache not used: the input's content differs"), std::string::npos) << edited.err;
  EXPECT_EQ(summary_rows(edited.out).at(0).checksum, "25");  // 16 + 9, not the old graph's 16
  const tool_result fresh = run({input, "--cpu", "--no-cache"});
  EXPECT_EQ(summary_rows(fresh.out).at(0).checksum, "25");
}

TEST_F(tool_limits, a_small_input_leaves_no_cache) {
  const std::string cache = (dir_ / "cache").string();
  const tool_result result = run({data_graph("rome99.gr"), "--cpu", "--cache", cache, "--verbose"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.err.find("no cache written: the text is under 16.8 MB"), std::string::npos) << result.err;
  EXPECT_FALSE(fs::exists(cache) && !fs::is_empty(cache));
}

}  // namespace
}  // namespace bkt::sssp::test
