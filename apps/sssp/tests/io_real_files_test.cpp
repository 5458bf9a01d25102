// The real graphs in data/graphs: their known sizes, and the same CSR with 1 and 3 threads and
// from the cache. Caches go to a temporary folder: the data folder may be read-only.
#include <gtest/gtest.h>

#include <string>

#include "bkt_apps_test/temp_dir.hpp"
#include "io/load_graph.hpp"

namespace bkt::sssp {
namespace {

class io_real_files : public apps::test::temp_dir_test {
 protected:
  loaded_graph load(const std::string& name, int threads, bool undirected = false) const {
    load_options options;
    options.threads = threads;
    options.undirected = undirected;
    options.cache_dir = path("cache");
    options.min_cache_text_bytes = 0;  // these files are under the tool's 16 MiB threshold
    return load_graph(std::string(BKT_DATA_DIR) + "/graphs/" + name, options);
  }
  /// Loads `name` three ways (1 thread, 3 threads, the cache) and checks they agree.
  const csr_graph<std::uint32_t>& checked(const std::string& name, bool undirected, loaded_graph& keep) const {
    const loaded_graph one = load(name, 1, undirected);
    EXPECT_FALSE(one.from_cache);
    use_cache_free_copy(name, undirected, one);
    keep = load(name, 3, undirected);
    EXPECT_TRUE(keep.from_cache);
    EXPECT_EQ(std::get<csr_graph<std::uint32_t>>(keep.graph).targets, std::get<csr_graph<std::uint32_t>>(one.graph).targets);
    EXPECT_EQ(std::get<csr_graph<std::uint32_t>>(keep.graph).weights, std::get<csr_graph<std::uint32_t>>(one.graph).weights);
    return std::get<csr_graph<std::uint32_t>>(keep.graph);
  }
  /// Parsing again on 3 threads without the cache gives the same arrays.
  void use_cache_free_copy(const std::string& name, bool undirected, const loaded_graph& want) const {
    load_options options;
    options.threads = 3;
    options.undirected = undirected;
    options.use_cache = false;
    const loaded_graph again = load_graph(std::string(BKT_DATA_DIR) + "/graphs/" + name, options);
    const auto& a = std::get<csr_graph<std::uint32_t>>(again.graph);
    const auto& b = std::get<csr_graph<std::uint32_t>>(want.graph);
    EXPECT_EQ(a.offsets, b.offsets);
    EXPECT_EQ(a.targets, b.targets);
    EXPECT_EQ(a.weights, b.weights);
  }
};

TEST_F(io_real_files, rome99) {
  loaded_graph loaded;
  const auto& graph = checked("rome99.gr", false, loaded);
  EXPECT_EQ(graph.num_vertices(), 3353);
  EXPECT_EQ(graph.num_edges(), 4444);
  EXPECT_EQ(loaded.index_base, 1);
  EXPECT_EQ(loaded.format, graph_format::dimacs);
  EXPECT_EQ(loaded.input_bytes, 68330);
}

TEST_F(io_real_files, facebook_combined) {
  loaded_graph directed;
  EXPECT_EQ(checked("facebook_combined.txt", false, directed).num_edges(), 88234);
  loaded_graph loaded;
  const auto& graph = checked("facebook_combined.txt", true, loaded);
  EXPECT_EQ(graph.num_vertices(), 4039);
  EXPECT_EQ(graph.num_edges(), 176468);
  EXPECT_EQ(loaded.index_base, 0);
  EXPECT_TRUE(loaded.symmetric);
}

TEST_F(io_real_files, luxembourg_osm) {
  loaded_graph loaded;
  const auto& graph = checked("luxembourg_osm.mtx", false, loaded);
  EXPECT_EQ(graph.num_vertices(), 114599);
  EXPECT_EQ(graph.num_edges(), 2 * 119666);  // no diagonal entries
  EXPECT_EQ(loaded.index_base, 1);
  EXPECT_TRUE(loaded.symmetric);
  EXPECT_EQ(loaded.format, graph_format::matrix_market);
}

}  // namespace
}  // namespace bkt::sssp
