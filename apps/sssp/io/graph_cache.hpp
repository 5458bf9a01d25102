// The binary CSR cache: a graph saved after its first parse, read back at close to disk speed
// while the input file and the options that shape the graph are unchanged.
//
// Layout (machine byte order; a cache from another byte order fails its header check):
//   cache_header (96 bytes), offsets (n + 1 x int64), targets (m x uint32), weights (m x 4 bytes)
// The header holds a hash of itself and one of the arrays, so damage anywhere is noticed. A cache
// is never trusted beyond that either: every field and every array element is checked against
// the graph's invariants on load, so a file that was written by something else, or crafted, is
// ignored (the input is parsed instead) rather than read out of bounds.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "graph.hpp"
#include "io/graph_format.hpp"
#include "io/input_file.hpp"

namespace bkt::sssp::detail {

/// What must match for a cache to stand for the input: the input file's size, modification time
/// and content hash (io/content_hash.hpp, of the bytes as stored), and a hash of the load options
/// that change the graph.
struct cache_key {
  input_stamp input;
  std::uint64_t content_hash = 0;
  std::uint64_t options_hash = 0;
};

/// A graph with what the loader reports about it.
struct cached_graph {
  any_graph graph;
  graph_format format = graph_format::automatic;
  int index_base = 0;
  bool symmetric = false;
};

/// What a sound cache header says.
struct cache_header_info {
  cache_key key;
  std::int64_t num_vertices = 0;
  std::int64_t num_edges = 0;
  bool weights_are_float = false;
  graph_format format = graph_format::automatic;
  int index_base = 0;
  bool symmetric = false;
  std::uint64_t arrays_check = 0;  // the arrays' hash
};

/// "INPUT.bkt-csr" beside the input, or in `cache_dir` "HASH-NAME.bkt-csr", where HASH is a
/// hash of the input's absolute path and NAME its file name (so that inputs of the same name in
/// different folders do not share a cache).
std::string cache_path_for(const std::string& input_path, const std::string& cache_dir);

/// The bytes of a cache of `num_vertices` and `num_edges`.
std::int64_t cache_file_bytes(std::int64_t num_vertices, std::int64_t num_edges);

/// The header of the cache at `path` when it is sound: the magic, version, byte order and its
/// own hash; weights 0 or 1, symmetric 0 or 1, a known format with its index base (0 for edge
/// lists, 1 otherwise), 0 <= n < 2^32, 0 <= m <= 2^58, and the file exactly as large as the header
/// and arrays they imply. Else nullopt, with `reason` saying why (missing, truncated, ...).
std::optional<cache_header_info> read_cache_header(const std::string& path, std::string& reason);

/// The graph of a cache whose header read_cache_header accepted, read and checked on `threads`
/// threads: nullopt, with `reason`, when the arrays' hash differs or they break an invariant
/// (offsets start at 0, never decrease, end at m; every target is below n; float weights are
/// finite with the sign bit clear). The caller checks `header` against the memory budget first.
std::optional<cached_graph> read_cache_arrays(const std::string& path, const cache_header_info& header, int threads,
                                              std::string& reason);

/// Writes the cache whole or not at all (a temporary renamed into place); creates a missing
/// cache folder; hashes the arrays on `threads` threads. Throws app_error on failure (the loader
/// makes that a warning).
void write_cache(const std::string& path, const cache_key& key, const cached_graph& graph, int threads);

/// write_cache of a graph that is not in a cached_graph (no copy of it is made).
template <edge_weight Weight>
void write_cache(const std::string& path, const cache_key& key, const csr_graph<Weight>& graph, graph_format format,
                 int index_base, bool symmetric, int threads);

}  // namespace bkt::sssp::detail
