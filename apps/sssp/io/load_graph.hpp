// Loading a graph file for bkt-sssp: DIMACS .gr, MatrixMarket .mtx or an edge list, plain or
// gzip-compressed (inflated as a stream), parsed on several threads into CSR, with a binary cache
// beside the input (or in a cache folder) so that a second load reads arrays instead of text.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "graph.hpp"
#include "io/graph_format.hpp"

namespace bkt::sssp {

/// Weights drawn in [lo, hi] instead of the file's: input edge i (0-based, in file order) gets
/// lo + mix(seed, i) % (hi - lo + 1) (io/random_weight.hpp), so the result does not depend on the
/// thread count, and an edge and the reverse --undirected adds share a weight.
struct random_weights {
  std::uint32_t lo = 1;
  std::uint32_t hi = 1;
  std::uint64_t seed = 0;
};

struct load_options {
  graph_format format = graph_format::automatic;  // automatic: by extension (after stripping .gz),
                                                   // else by the first bytes
  bool undirected = false;                  // add the reverse of every edge (a self-loop stays one edge)
  std::optional<random_weights> weights;    // replace every weight (pattern/unweighted files get 1 otherwise)
  std::string cache_dir;                    // where the binary CSR cache lives; empty: beside the input
  bool use_cache = true;                    // false: neither read nor write a cache
  bool write_cache = true;                  // false: read a cache, never write one (mpirun ranks but rank 0)
  std::int64_t min_cache_text_bytes = std::int64_t{16} << 20;  // no cache for less text: parsing it is quick
  int threads = 0;                          // parser threads; 0: std::thread::hardware_concurrency()
  std::int64_t memory_budget = std::numeric_limits<std::int64_t>::max();  // host bytes the graph may take
                                            // (apps::host_memory_budget); more is refused before it is allocated
  std::int64_t gzip_window_bytes = std::int64_t{64} << 20;  // decompressed text parsed at a time
  bool verbose = false;                     // say on stderr why a cache was not used or not written
};

struct loaded_graph {
  any_graph graph;
  int index_base = 0;             // how the file numbers vertices: 1 for DIMACS and MatrixMarket, 0 for edge lists
  graph_format format{};
  bool symmetric = false;         // symmetric MatrixMarket (always undirected) or --undirected
  bool from_cache = false;
  std::int64_t input_bytes = 0;   // size of the file as stored (compressed size for .gz)
  double seconds = 0;             // wall time of the whole load
  std::string cache_path;         // the cache read or written ("" if none)
};

/// Loads `path`. Bad data is an app_error "FILE:LINE: problem" (exit 1), a missing file
/// "FILE: cannot open: REASON", bad options (lo > hi) a usage error (exit 2), a graph that would
/// need more than options.memory_budget (as a header, a vertex id or the edges read so far imply)
/// an app_error as soon as that is known. Weights are uint32 for DIMACS, integer and pattern
/// MatrixMarket, integer and unweighted edge lists and random weights; float for real
/// MatrixMarket and edge lists with a fraction or exponent. Every edge is kept (self-loops and
/// parallel edges too); each row lists its edges in file order.
/// The cache is read when its key (the input's size, time and content hash, and the options)
/// matches and every invariant holds; else the input is parsed. It is written after a parse of at
/// least min_cache_text_bytes of text, unless it would be over 4 times the text's size. A cache
/// that cannot be written is a warning on stderr, not an error.
loaded_graph load_graph(const std::string& path, const load_options& options);

}  // namespace bkt::sssp
