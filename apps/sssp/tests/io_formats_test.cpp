// Each graph format parsed from small hand-written files: offsets, targets and weights exactly.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "bkt_apps_test/temp_dir.hpp"
#include "bkt_apps/app_error.hpp"
#include "io/load_graph.hpp"

namespace bkt::sssp {
namespace {

class io_formats : public apps::test::temp_dir_test {
 protected:
  loaded_graph load(const std::string& name, const std::string& text, load_options options = {}) {
    options.use_cache = false;
    return load_graph(write_file(name, text), options);
  }
};

template <class Weight>
void expect_csr(const loaded_graph& loaded, const std::vector<std::int64_t>& offsets, const std::vector<vertex>& targets,
                const std::vector<Weight>& weights) {
  ASSERT_TRUE(std::holds_alternative<csr_graph<Weight>>(loaded.graph));
  const auto& graph = std::get<csr_graph<Weight>>(loaded.graph);
  EXPECT_EQ(graph.offsets, offsets);
  EXPECT_EQ(graph.targets, targets);
  EXPECT_EQ(graph.weights, weights);
}

TEST_F(io_formats, dimacs) {
  const loaded_graph loaded = load("g.gr",
                                   "c a small road map\n"
                                   "p sp 4 5\n"
                                   "a 1 2 7\n"
                                   "a 1 3 2\n"
                                   "a 3 2 1\n"
                                   "c a comment between arcs\n"
                                   "a 4 1 0\n"
                                   "a 1 2 9\n");
  expect_csr<std::uint32_t>(loaded, {0, 3, 3, 4, 5}, {1, 2, 1, 1, 0}, {7, 2, 9, 1, 0});
  EXPECT_EQ(loaded.index_base, 1);
  EXPECT_EQ(loaded.format, graph_format::dimacs);
  EXPECT_FALSE(loaded.symmetric);
  EXPECT_FALSE(loaded.from_cache);
  EXPECT_EQ(loaded.cache_path, "");
  EXPECT_GT(loaded.input_bytes, 0);
}

TEST_F(io_formats, dimacs_one_vertex_no_arcs_and_crlf) {
  expect_csr<std::uint32_t>(load("one.gr", "p sp 1 0\n"), {0, 0}, {}, {});
  expect_csr<std::uint32_t>(load("crlf.gr", "c x\r\np sp 2 1\r\na 2 1 4\r\n"), {0, 0, 1}, {0}, {4});
  expect_csr<std::uint32_t>(load("no_newline.gr", "p sp 2 1\na 1 2 3"), {0, 1, 1}, {1}, {3});
}

TEST_F(io_formats, matrix_market_real_general) {
  const loaded_graph loaded = load("g.mtx",
                                   "%%MatrixMarket matrix coordinate real general\n"
                                   "% a comment\n"
                                   "3 3 4\n"
                                   "1 2 0.5\n"
                                   "2 3 1.25\n"
                                   "3 1 2\n"
                                   "1 1 3e-1\n");
  expect_csr<float>(loaded, {0, 2, 3, 4}, {1, 0, 2, 0}, {0.5f, 0.3f, 1.25f, 2.0f});
  EXPECT_EQ(loaded.index_base, 1);
  EXPECT_EQ(loaded.format, graph_format::matrix_market);
  EXPECT_FALSE(loaded.symmetric);
}

TEST_F(io_formats, matrix_market_integer_banner_is_case_insensitive) {
  const loaded_graph loaded = load("g.mtx",
                                   "%%MatrixMarket MATRIX Coordinate INTEGER General\n"
                                   "2 2 2\n"
                                   "2 1 4294967295\n"
                                   "1 2 0\n");
  expect_csr<std::uint32_t>(loaded, {0, 1, 2}, {1, 0}, {0, 4294967295u});
}

TEST_F(io_formats, matrix_market_symmetric_pattern) {
  // Each off-diagonal entry stands for two edges, the diagonal one for one; rows in entry order.
  const loaded_graph loaded = load("g.mtx",
                                   "%%MatrixMarket matrix coordinate pattern symmetric\n"
                                   "3 3 3\n"
                                   "2 1\n"
                                   "3 1\n"
                                   "2 2\n");
  expect_csr<std::uint32_t>(loaded, {0, 2, 4, 5}, {1, 2, 0, 1, 0}, {1, 1, 1, 1, 1});
  EXPECT_TRUE(loaded.symmetric);
}

TEST_F(io_formats, matrix_market_symmetric_real_shares_weights) {
  const loaded_graph loaded = load("g.mtx",
                                   "%%MatrixMarket matrix coordinate real symmetric\n"
                                   "2 2 1\n"
                                   "2 1 0.75\n");
  expect_csr<float>(loaded, {0, 1, 2}, {1, 0}, {0.75f, 0.75f});
}

TEST_F(io_formats, edge_list_unweighted_with_comments_commas_and_tabs) {
  const loaded_graph loaded = load("g.txt",
                                   "# SNAP header\n"
                                   "% another comment\n"
                                   "\n"
                                   "0 1\n"
                                   "1,2\n"
                                   "2\t0\n"
                                   "  0 ,  3   \n");
  expect_csr<std::uint32_t>(loaded, {0, 2, 3, 4, 4}, {1, 3, 2, 0}, {1, 1, 1, 1});
  EXPECT_EQ(loaded.index_base, 0);
  EXPECT_EQ(loaded.format, graph_format::edge_list);
}

TEST_F(io_formats, edge_list_integer_weights) {
  expect_csr<std::uint32_t>(load("g.el", "0 1 5\n1 2 4294967295\n"), {0, 1, 2, 2}, {1, 2}, {5, 4294967295u});
}

TEST_F(io_formats, edge_list_with_one_fraction_has_float_weights) {
  // An integer of 2^32 or more is fine once the file turns out to hold floats.
  const loaded_graph loaded = load("g.csv", "0,1,5\n1,2,0.5\n2,0,1e2\n0,2,4294967296\n");
  expect_csr<float>(loaded, {0, 2, 3, 4}, {1, 2, 2, 0}, {5.0f, 4294967296.0f, 0.5f, 100.0f});
}

TEST_F(io_formats, edge_list_negative_zero_and_plus_sign_weights) {
  expect_csr<std::uint32_t>(load("g.txt", "0 1 -0\n1 0 +3\n"), {0, 1, 2}, {1, 0}, {0, 3});
}

TEST_F(io_formats, empty_edge_lists) {
  expect_csr<std::uint32_t>(load("comments.txt", "# nothing\n% here\n\n"), {0}, {}, {});
  expect_csr<std::uint32_t>(load("empty.txt", ""), {0}, {}, {});
}

TEST_F(io_formats, gzip_input) {
  const std::string text = "c gzipped\np sp 3 2\na 1 2 5\na 2 3 6\n";
  const std::string file = path("g.gr.gz");
  gzFile out = gzopen(file.c_str(), "wb");
  ASSERT_NE(out, nullptr);
  ASSERT_EQ(gzwrite(out, text.data(), static_cast<unsigned>(text.size())), static_cast<int>(text.size()));
  ASSERT_EQ(gzclose(out), Z_OK);
  load_options options;
  options.use_cache = false;
  const loaded_graph loaded = load_graph(file, options);
  expect_csr<std::uint32_t>(loaded, {0, 1, 2, 2}, {1, 2}, {5, 6});
  EXPECT_EQ(loaded.format, graph_format::dimacs);
  EXPECT_EQ(loaded.input_bytes, static_cast<std::int64_t>(read_file(file).size()));

  // Gzip data under a plain name is recognised by its magic bytes.
  const std::string renamed = path("g.gr");
  std::filesystem::rename(file, renamed);
  expect_csr<std::uint32_t>(load_graph(renamed, options), {0, 1, 2, 2}, {1, 2}, {5, 6});
}

TEST_F(io_formats, concatenated_gzip_members) {
  const std::string file = path("g.txt.gz");
  for (const char* part : {"0 1\n", "1 2\n"}) {
    gzFile out = gzopen(file.c_str(), "ab");
    ASSERT_NE(out, nullptr);
    gzputs(out, part);
    gzclose(out);
  }
  load_options options;
  options.use_cache = false;
  expect_csr<std::uint32_t>(load_graph(file, options), {0, 1, 2, 2}, {1, 2}, {1, 1});
}

TEST_F(io_formats, format_option_overrides_the_extension) {
  load_options options;
  options.format = graph_format::edge_list;
  expect_csr<std::uint32_t>(load("g.gr", "0 1\n", options), {0, 1, 1}, {1}, {1});
}

TEST_F(io_formats, unknown_extension_is_recognised_by_content) {
  EXPECT_EQ(load("a.dat", "c x\np sp 1 0\n").format, graph_format::dimacs);
  EXPECT_EQ(load("b.dat", "%%MatrixMarket matrix coordinate pattern general\n1 1 0\n").format,
            graph_format::matrix_market);
  EXPECT_EQ(load("c.dat", "0 1\n").format, graph_format::edge_list);
}

TEST(io_format_names, parse_and_guess) {
  EXPECT_EQ(parse_format_name("gr"), graph_format::dimacs);
  EXPECT_EQ(parse_format_name("DIMACS"), graph_format::dimacs);
  EXPECT_EQ(parse_format_name("mtx"), graph_format::matrix_market);
  EXPECT_EQ(parse_format_name("matrix-market"), graph_format::matrix_market);
  EXPECT_EQ(parse_format_name("edges"), graph_format::edge_list);
  EXPECT_EQ(parse_format_name("edge-list"), graph_format::edge_list);
  EXPECT_EQ(parse_format_name("snap"), graph_format::edge_list);
  try {
    parse_format_name("csv2");
    FAIL() << "no error";
  } catch (const apps::app_error& error) {
    EXPECT_EQ(error.code(), apps::exit_usage);
  }
  EXPECT_EQ(format_from_extension("x/road.gr"), graph_format::dimacs);
  EXPECT_EQ(format_from_extension("road.gr.gz"), graph_format::dimacs);
  EXPECT_EQ(format_from_extension("m.MTX.gz"), graph_format::matrix_market);
  for (const char* name : {"a.txt", "a.el", "a.edges", "a.tsv", "a.csv", "a.txt.gz"})
    EXPECT_EQ(format_from_extension(name), graph_format::edge_list) << name;
  EXPECT_EQ(format_from_extension("a.bin"), graph_format::automatic);
  EXPECT_EQ(format_name(graph_format::matrix_market), "matrix-market");
}

}  // namespace
}  // namespace bkt::sssp
