// Caches whose hashes are valid but whose contents break the graph's invariants (as a bug or a
// crafted file would make them): each is ignored, the input is parsed instead, --verbose says why,
// and nothing is read or written out of bounds.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <string>

#include "bkt_apps_test/temp_dir.hpp"
#include "io/graph_cache.hpp"
#include "io/load_graph.hpp"

namespace bkt::sssp {
namespace {

namespace fs = std::filesystem;

// 4 vertices, 5 arcs; the CSR is offsets {0, 3, 3, 4, 5}, targets {1, 2, 1, 1, 0}.
constexpr const char* small_graph = "c cached\np sp 4 5\na 1 2 7\na 1 3 2\na 3 2 1\na 4 1 0\na 1 2 9\n";

class io_cache_invariants : public apps::test::temp_dir_test {
 protected:
  void SetUp() override {
    temp_dir_test::SetUp();
    input_ = write_file("g.gr", small_graph);
    const loaded_graph first = load_graph(input_, options(false));
    ASSERT_FALSE(first.from_cache);
    cache_ = first.cache_path;
    std::string reason;
    const auto header = detail::read_cache_header(cache_, reason);
    ASSERT_TRUE(header) << reason;
    key_ = header->key;
    want_ = std::get<csr_graph<std::uint32_t>>(first.graph);
  }

  static load_options options(bool verbose) {
    load_options load;
    load.threads = 2;
    load.min_cache_text_bytes = 0;
    load.verbose = verbose;
    return load;
  }

  /// Replaces the cache with `graph` (its hashes computed as a real cache's are), loads the input
  /// and expects the cache ignored for a reason that contains `reason`, and the parsed graph.
  template <class Weight>
  void expect_ignored(const csr_graph<Weight>& graph, const std::string& reason, int index_base = 1,
                      graph_format format = graph_format::dimacs) {
    detail::write_cache(cache_, key_, {graph, format, index_base, false}, 2);
    expect_parsed_instead(reason);
  }

  void expect_parsed_instead(const std::string& reason) {
    testing::internal::CaptureStderr();
    const loaded_graph loaded = load_graph(input_, options(true));
    const std::string said = testing::internal::GetCapturedStderr();
    EXPECT_FALSE(loaded.from_cache);
    const auto& graph = std::get<csr_graph<std::uint32_t>>(loaded.graph);
    EXPECT_EQ(graph.offsets, want_.offsets);
    EXPECT_EQ(graph.targets, want_.targets);
    EXPECT_EQ(graph.weights, want_.weights);
    EXPECT_NE(said.find(cache_ + ": cache not used: "), std::string::npos) << said;
    EXPECT_NE(said.find(reason), std::string::npos) << said;
    EXPECT_TRUE(load_graph(input_, options(false)).from_cache);  // the parse rewrote a sound cache
  }

  std::string input_;
  std::string cache_;
  detail::cache_key key_;
  csr_graph<std::uint32_t> want_;
};

TEST_F(io_cache_invariants, a_sound_crafted_cache_is_read) {
  // The control: the same path, written the same way, is trusted when it is sound.
  csr_graph<std::uint32_t> graph = want_;
  graph.weights[0] = 1;  // another graph, but a valid one: the key is all a cache can be checked by
  detail::write_cache(cache_, key_, {graph, graph_format::dimacs, 1, false}, 2);
  const loaded_graph loaded = load_graph(input_, options(false));
  EXPECT_TRUE(loaded.from_cache);
  EXPECT_EQ(std::get<csr_graph<std::uint32_t>>(loaded.graph).weights[0], 1u);
}

TEST_F(io_cache_invariants, target_equal_to_the_vertex_count) {
  csr_graph<std::uint32_t> graph = want_;
  graph.targets[4] = 4;  // one past the last vertex: a heap write out of bounds if trusted
  expect_ignored(graph, "edge 4 goes to vertex 4, not below the 4 vertices");
}

TEST_F(io_cache_invariants, huge_target) {
  csr_graph<std::uint32_t> graph = want_;
  graph.targets[1] = std::numeric_limits<vertex>::max();
  expect_ignored(graph, "edge 1 goes to vertex 4294967295");
}

TEST_F(io_cache_invariants, offsets_that_decrease) {
  csr_graph<std::uint32_t> graph = want_;
  graph.offsets = {0, 3, 1, 4, 5};
  expect_ignored(graph, "offsets[2] = 1 is below offsets[1] = 3");
}

TEST_F(io_cache_invariants, offsets_not_starting_at_zero) {
  csr_graph<std::uint32_t> graph = want_;
  graph.offsets = {1, 3, 3, 4, 5};
  expect_ignored(graph, "offsets[0] is 1, not 0");
}

TEST_F(io_cache_invariants, last_offset_other_than_the_edge_count) {
  csr_graph<std::uint32_t> graph = want_;
  graph.offsets = {0, 3, 3, 4, 4};  // 5 targets, but the rows cover 4
  expect_ignored(graph, "offsets[4] = 4, not the edge count 5");
  graph.offsets = {0, 3, 3, 4, 9};  // past the arrays' end
  expect_ignored(graph, "offsets[4] = 9 is past the 5 edges");
  graph.offsets = {0, -3, 3, 4, 5};  // negative
  expect_ignored(graph, "offsets[1] = -3 is below offsets[0] = 0");
}

TEST_F(io_cache_invariants, index_base_that_is_negative_or_wrong_for_the_format) {
  expect_ignored(want_, "index base -1", -1);
  expect_ignored(want_, "index base 0", 0, graph_format::dimacs);  // DIMACS numbers from 1
  expect_ignored(want_, "index base 1", 1, graph_format::edge_list);
  expect_ignored(want_, "format 0", 1, graph_format::automatic);
  expect_ignored(want_, "format 99", 1, static_cast<graph_format>(99));
}

TEST_F(io_cache_invariants, float_weights_that_are_not_finite_or_negative) {
  csr_graph<float> graph;
  graph.offsets = want_.offsets;
  graph.targets = want_.targets;
  graph.weights = {1, 2, 3, 4, 5};
  for (const float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(), -1.0f, -0.0f}) {
    SCOPED_TRACE(bad);
    graph.weights[3] = bad;
    expect_ignored(graph, "edge 3 has weight");
  }
}

TEST_F(io_cache_invariants, truncated_or_padded_file) {
  const std::string good = read_file(cache_);
  write_file("g.gr.bkt-csr", good.substr(0, good.size() - 4));
  expect_parsed_instead("bytes where its header implies");
  write_file("g.gr.bkt-csr", good + "xxxx");
  expect_parsed_instead("bytes where its header implies");
  write_file("g.gr.bkt-csr", good.substr(0, 50));
  expect_parsed_instead("shorter than its header");
}

TEST_F(io_cache_invariants, other_versions_and_foreign_files) {
  std::string old = read_file(cache_);
  old[8] = 1;  // format version 1 (no content hash in its key)
  write_file("g.gr.bkt-csr", old);
  expect_parsed_instead("format version 1");
  write_file("g.gr.bkt-csr", std::string(200, 'x'));
  expect_parsed_instead("not a bkt-sssp cache");
}

TEST_F(io_cache_invariants, a_stale_key_is_reported) {
  detail::cache_key other = key_;
  other.content_hash ^= 1;
  detail::write_cache(cache_, other, {want_, graph_format::dimacs, 1, false}, 2);
  expect_parsed_instead("the input's content differs");
  other = key_;
  other.options_hash ^= 1;
  detail::write_cache(cache_, other, {want_, graph_format::dimacs, 1, false}, 2);
  expect_parsed_instead("other options");
  other = key_;
  other.input.mtime_ns += 1;
  detail::write_cache(cache_, other, {want_, graph_format::dimacs, 1, false}, 2);
  expect_parsed_instead("size or modification time");
}

TEST_F(io_cache_invariants, a_cache_larger_than_the_memory_budget_is_refused) {
  load_options tight = options(false);
  tight.memory_budget = 100;  // the cached graph needs 8 * 5 + 8 * 5 + 32 * 4 bytes
  try {
    load_graph(input_, tight);
    ADD_FAILURE() << "no error";
  } catch (const std::exception& error) {
    EXPECT_NE(std::string(error.what()).find(input_ + ": the cached graph of 4 vertices and 5 edges needs"),
              std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace bkt::sssp
