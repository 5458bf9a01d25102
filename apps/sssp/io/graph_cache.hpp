// The binary CSR cache: a graph saved after its first parse, read back at close to disk speed
// while the input file and the options that shape the graph are unchanged.
//
// Layout (machine byte order; a cache from another byte order fails its header check):
//   cache_header (88 bytes), offsets (n + 1 x int64), targets (m x uint32), weights (m x 4 bytes)
// The header holds a hash of itself and one of the arrays, so damage anywhere is noticed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "graph.hpp"
#include "io/graph_format.hpp"
#include "io/input_file.hpp"

namespace bkt::sssp::detail {

/// What must match for a cache to stand for the input: the input file's size and modification
/// time, and a hash of the load options that change the graph.
struct cache_key {
  input_stamp input;
  std::uint64_t options_hash = 0;
};

/// A graph with what the loader reports about it.
struct cached_graph {
  any_graph graph;
  graph_format format = graph_format::automatic;
  int index_base = 0;
  bool symmetric = false;
};

/// "INPUT.bkt-csr" beside the input, or in `cache_dir` "HASH-NAME.bkt-csr", where HASH is a
/// hash of the input's absolute path and NAME its file name (so that inputs of the same name in
/// different folders do not share a cache).
std::string cache_path_for(const std::string& input_path, const std::string& cache_dir);

/// The cached graph when `path` holds one for `key`; nullopt when it is missing, stale,
/// truncated or corrupt (the header, the file size and the arrays' hash are checked, so a
/// damaged cache is re-parsed rather than trusted). Reads and hashes on `threads` threads.
std::optional<cached_graph> read_cache(const std::string& path, const cache_key& key, int threads);

/// Writes the cache whole or not at all (a temporary renamed into place); creates a missing
/// cache folder; hashes the arrays on `threads` threads. Throws app_error on failure (the loader
/// makes that a warning).
void write_cache(const std::string& path, const cache_key& key, const cached_graph& graph, int threads);

/// 64-bit FNV-1a of `bytes`, continuing from `hash`.
std::uint64_t hash_bytes(const void* bytes, std::size_t size, std::uint64_t hash = 0xcbf29ce484222325ULL);

}  // namespace bkt::sssp::detail
