// The binary CSR cache: written on the first load, read on the next, and ignored when the input
// (its size, time or content), the options or the cache itself changed; never written for a small
// input, a failed load, or a cache many times its input's size.
#include <gtest/gtest.h>
#include <zlib.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "bkt_apps_test/temp_dir.hpp"
#include "bkt_apps/app_error.hpp"
#include "io/load_graph.hpp"

namespace bkt::sssp {
namespace {

namespace fs = std::filesystem;

constexpr const char* small_graph = "c cached\np sp 4 5\na 1 2 7\na 1 3 2\na 3 2 1\na 4 1 0\na 1 2 9\n";

class io_cache : public apps::test::temp_dir_test {
 protected:
  /// Options that cache any input, however small (the tool's threshold is 16 MiB).
  static load_options cached(int threads = 2) {
    load_options options;
    options.threads = threads;
    options.min_cache_text_bytes = 0;
    return options;
  }
  /// Rewrites `file` with `text` and moves its modification time `seconds` on.
  static void rewrite(const std::string& file, const std::string& text, int seconds) {
    const fs::file_time_type before = fs::last_write_time(file);
    std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
    fs::last_write_time(file, before + std::chrono::seconds(seconds));
  }
};

void expect_same_graph(const loaded_graph& got, const loaded_graph& want) {
  ASSERT_EQ(got.graph.index(), want.graph.index());
  std::visit(
      [&]<class Weight>(const csr_graph<Weight>& graph) {
        const auto& expected = std::get<csr_graph<Weight>>(want.graph);
        EXPECT_EQ(graph.offsets, expected.offsets);
        EXPECT_EQ(graph.targets, expected.targets);
        EXPECT_EQ(graph.weights, expected.weights);
      },
      got.graph);
  EXPECT_EQ(got.index_base, want.index_base);
  EXPECT_EQ(got.format, want.format);
  EXPECT_EQ(got.symmetric, want.symmetric);
  EXPECT_EQ(got.input_bytes, want.input_bytes);
}

TEST_F(io_cache, written_beside_the_input_then_reused) {
  const std::string input = write_file("g.gr", small_graph);
  const loaded_graph first = load_graph(input, cached());
  EXPECT_FALSE(first.from_cache);
  EXPECT_EQ(first.cache_path, input + ".bkt-csr");
  EXPECT_TRUE(fs::exists(input + ".bkt-csr"));
  const loaded_graph second = load_graph(input, cached(5));
  EXPECT_TRUE(second.from_cache);
  EXPECT_EQ(second.cache_path, input + ".bkt-csr");
  expect_same_graph(second, first);
  EXPECT_EQ(entries().size(), 2u);  // the input and its cache: no temporary left behind
}

TEST_F(io_cache, float_symmetric_graph_round_trips) {
  const std::string input = write_file("g.mtx",
                                       "%%MatrixMarket matrix coordinate real symmetric\n"
                                       "3 3 2\n2 1 0.25\n3 3 1e-3\n");
  const loaded_graph first = load_graph(input, cached());
  const loaded_graph second = load_graph(input, cached());
  EXPECT_TRUE(second.from_cache);
  EXPECT_TRUE(second.symmetric);
  expect_same_graph(second, first);
  EXPECT_TRUE(std::holds_alternative<csr_graph<float>>(second.graph));
}

TEST_F(io_cache, a_changed_input_is_parsed_again) {
  const std::string input = write_file("g.txt", "0 1 5\n1 2 6\n");
  load_graph(input, cached());
  rewrite(input, "0 1 5\n2 1 6\n", 10);  // same size, new content, later time
  const loaded_graph changed = load_graph(input, cached());
  EXPECT_FALSE(changed.from_cache);
  EXPECT_EQ(std::get<csr_graph<std::uint32_t>>(changed.graph).targets, (std::vector<vertex>{1, 1}));
  EXPECT_TRUE(load_graph(input, cached()).from_cache);
}

TEST_F(io_cache, an_edit_that_keeps_size_and_time_is_parsed_again) {
  // cp -p, rsync -t and touch -r keep the size and the modification time: only the content shows.
  const std::string input = write_file("g.txt", "0 1 5\n1 2 6\n");
  const fs::file_time_type stamp = fs::last_write_time(input);
  const loaded_graph first = load_graph(input, cached());
  EXPECT_FALSE(first.from_cache);
  std::ofstream(input, std::ios::binary | std::ios::trunc) << "0 2 5\n2 1 7\n";
  fs::last_write_time(input, stamp);
  ASSERT_EQ(fs::last_write_time(input), stamp);
  const loaded_graph edited = load_graph(input, cached());
  EXPECT_FALSE(edited.from_cache);
  const auto& graph = std::get<csr_graph<std::uint32_t>>(edited.graph);
  EXPECT_EQ(graph.offsets, (std::vector<std::int64_t>{0, 1, 1, 2}));
  EXPECT_EQ(graph.targets, (std::vector<vertex>{2, 1}));
  EXPECT_EQ(graph.weights, (std::vector<std::uint32_t>{5, 7}));
  const loaded_graph again = load_graph(input, cached());  // the cache now stands for the new content
  EXPECT_TRUE(again.from_cache);
  expect_same_graph(again, edited);
}

TEST_F(io_cache, small_inputs_are_not_cached_by_default) {
  const std::string input = write_file("g.gr", small_graph);
  load_options options;  // min_cache_text_bytes: 16 MiB
  EXPECT_EQ(options.min_cache_text_bytes, std::int64_t{16} << 20);
  const loaded_graph loaded = load_graph(input, options);
  EXPECT_FALSE(loaded.from_cache);
  EXPECT_EQ(loaded.cache_path, "");
  EXPECT_FALSE(fs::exists(input + ".bkt-csr"));
  options.min_cache_text_bytes = static_cast<std::int64_t>(std::string(small_graph).size());  // at the threshold: cached
  EXPECT_NE(load_graph(input, options).cache_path, "");
  EXPECT_TRUE(load_graph(input, options).from_cache);
}

TEST_F(io_cache, a_cache_many_times_its_input_is_not_written) {
  // 20 bytes declaring 10^6 vertices: an 8 MB cache, 400000 times the text.
  const std::string input = write_file("wide.gr", "p sp 1000000 1\na 1 2 3\n");
  load_options options = cached();
  options.verbose = true;
  testing::internal::CaptureStderr();
  const loaded_graph loaded = load_graph(input, options);
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_EQ(std::get<csr_graph<std::uint32_t>>(loaded.graph).num_vertices(), 1000000);
  EXPECT_EQ(loaded.cache_path, "");
  EXPECT_FALSE(fs::exists(input + ".bkt-csr"));
  EXPECT_NE(said.find("no cache written"), std::string::npos) << said;
  EXPECT_NE(said.find("over 4 times"), std::string::npos) << said;
}

TEST_F(io_cache, a_failed_load_writes_no_cache) {
  const std::string input = write_file("bad.gr", "p sp 3 2\na 1 2 5\na 2 x 1\n");
  EXPECT_THROW(load_graph(input, cached()), apps::app_error);
  EXPECT_FALSE(fs::exists(input + ".bkt-csr"));
  EXPECT_EQ(entries().size(), 1u);
}

TEST_F(io_cache, changed_options_are_parsed_again) {
  const std::string input = write_file("g.gr", small_graph);
  load_graph(input, cached());
  load_options undirected = cached();
  undirected.undirected = true;
  const loaded_graph both_ways = load_graph(input, undirected);
  EXPECT_FALSE(both_ways.from_cache);
  EXPECT_EQ(std::get<csr_graph<std::uint32_t>>(both_ways.graph).num_edges(), 10);
  EXPECT_TRUE(load_graph(input, undirected).from_cache);

  load_options random = cached();
  random.weights = random_weights{1, 50, 1};
  EXPECT_FALSE(load_graph(input, random).from_cache);
  EXPECT_TRUE(load_graph(input, random).from_cache);
  random.weights->seed = 2;
  EXPECT_FALSE(load_graph(input, random).from_cache);
  random.weights->hi = 49;
  EXPECT_FALSE(load_graph(input, random).from_cache);
}

TEST_F(io_cache, corrupt_or_truncated_caches_are_ignored_and_rewritten) {
  const std::string input = write_file("g.gr", small_graph);
  const loaded_graph first = load_graph(input, cached());
  const std::string cache = first.cache_path;
  const std::string good = read_file(cache);

  std::string damaged = good;
  damaged[damaged.size() - 20] = '\x01';  // a weight, still valid: only the hash shows it
  write_file("g.gr.bkt-csr", damaged);
  const loaded_graph after_damage = load_graph(input, cached());
  EXPECT_FALSE(after_damage.from_cache);
  expect_same_graph(after_damage, first);
  EXPECT_EQ(read_file(cache), good);

  write_file("g.gr.bkt-csr", good.substr(0, good.size() - 4));
  EXPECT_FALSE(load_graph(input, cached()).from_cache);
  EXPECT_TRUE(load_graph(input, cached()).from_cache);

  std::string bad_header = good;
  bad_header[40] = static_cast<char>(bad_header[40] ^ 1);  // a header field, caught by its check
  write_file("g.gr.bkt-csr", bad_header);
  EXPECT_FALSE(load_graph(input, cached()).from_cache);

  write_file("g.gr.bkt-csr", "");
  EXPECT_FALSE(load_graph(input, cached()).from_cache);
}

TEST_F(io_cache, cache_folder_holds_a_hashed_name) {
  const std::string input = write_file("g.gr", small_graph);
  load_options options = cached();
  options.cache_dir = path("cache/deeper");  // created on demand
  const loaded_graph first = load_graph(input, options);
  EXPECT_EQ(fs::path(first.cache_path).parent_path(), fs::path(path("cache/deeper")));
  EXPECT_TRUE(first.cache_path.ends_with("-g.gr.bkt-csr")) << first.cache_path;
  EXPECT_TRUE(fs::exists(first.cache_path));
  EXPECT_FALSE(fs::exists(input + ".bkt-csr"));
  EXPECT_TRUE(load_graph(input, options).from_cache);

  // A file of the same name in another folder gets its own cache.
  fs::create_directory(path("other"));
  const std::string twin = write_file("other/g.gr", "p sp 1 0\n");
  const loaded_graph other = load_graph(twin, options);
  EXPECT_FALSE(other.from_cache);
  EXPECT_NE(other.cache_path, first.cache_path);
  EXPECT_EQ(std::get<csr_graph<std::uint32_t>>(load_graph(twin, options).graph).num_vertices(), 1);
}

TEST_F(io_cache, no_cache_reads_and_writes_nothing) {
  const std::string input = write_file("g.gr", small_graph);
  load_options options = cached();
  options.use_cache = false;
  const loaded_graph loaded = load_graph(input, options);
  EXPECT_EQ(loaded.cache_path, "");
  EXPECT_FALSE(fs::exists(input + ".bkt-csr"));
  load_graph(input, cached());
  EXPECT_FALSE(load_graph(input, options).from_cache);
}

TEST_F(io_cache, an_unwritable_cache_is_a_warning) {
  const std::string input = write_file("g.gr", small_graph);
  load_options options = cached();
  options.cache_dir = write_file("a_file", "x") + "/cache";  // cannot be created
  testing::internal::CaptureStderr();
  const loaded_graph loaded = load_graph(input, options);
  const std::string warning = testing::internal::GetCapturedStderr();
  EXPECT_EQ(loaded.cache_path, "");
  EXPECT_FALSE(loaded.from_cache);
  EXPECT_EQ(std::get<csr_graph<std::uint32_t>>(loaded.graph).num_edges(), 5);
  EXPECT_EQ(warning.rfind("bkt-sssp: warning: ", 0), 0u) << warning;
}

TEST_F(io_cache, gzip_input_is_cached_with_its_compressed_size) {
  const std::string input = path("g.gr.gz");
  gzFile out = gzopen(input.c_str(), "wb");
  ASSERT_NE(out, nullptr);
  gzputs(out, small_graph);
  gzclose(out);
  const loaded_graph first = load_graph(input, cached());
  const loaded_graph second = load_graph(input, cached());
  EXPECT_TRUE(second.from_cache);
  EXPECT_EQ(second.input_bytes, static_cast<std::int64_t>(fs::file_size(input)));
  expect_same_graph(second, first);
}

}  // namespace
}  // namespace bkt::sssp
