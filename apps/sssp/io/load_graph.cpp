// load_graph: cache lookup, then read, parse, build, and write the cache for next time.
#include "io/load_graph.hpp"

#include <chrono>
#include <iostream>
#include <vector>

#include "bkt_apps/app_error.hpp"
#include "build_csr.hpp"
#include "io/graph_cache.hpp"
#include "io/input_file.hpp"
#include "io/parsers.hpp"
#include "parallel_for.hpp"

namespace bkt::sssp {
namespace {

/// The options that change the graph, hashed for the cache header. The format is the one the
/// extension or option names (automatic when the content decides: the same bytes decide alike).
std::uint64_t hash_options(graph_format format, const load_options& options) {
  const std::uint64_t fields[] = {static_cast<std::uint64_t>(format), options.undirected ? 1u : 0u,
                                  options.weights ? 1u : 0u, options.weights ? options.weights->lo : 0u,
                                  options.weights ? options.weights->hi : 0u, options.weights ? options.weights->seed : 0u};
  return detail::hash_bytes(fields, sizeof(fields));
}

detail::parsed_edges parse(const detail::text_buffer& text, graph_format format, const detail::parse_settings& settings) {
  switch (format) {
    case graph_format::dimacs:
      return detail::parse_dimacs(text, settings);
    case graph_format::matrix_market:
      return detail::parse_matrix_market(text, settings);
    case graph_format::edge_list:
    case graph_format::automatic:
      break;
  }
  return detail::parse_edge_list(text, settings);
}

/// The CSR of the parsed edges, whose chunks it consumes: uint32 weights for integer, unit and
/// random weights, float for real ones.
any_graph build_graph(detail::parsed_edges& edges, const load_options& options, int threads) {
  csr_options csr;
  csr.num_vertices = edges.num_vertices;
  csr.add_reverse = options.undirected || edges.symmetric;
  csr.weights = options.weights ? csr_weights::random
                : edges.weights == detail::weight_kind::unit ? csr_weights::unit
                                                             : csr_weights::stored;
  if (options.weights) {
    csr.lo = options.weights->lo;
    csr.hi = options.weights->hi;
    csr.seed = options.weights->seed;
  }
  csr.threads = threads;
  std::vector<edge_list> runs;
  runs.reserve(edges.chunks.size());
  for (detail::edge_chunk& chunk : edges.chunks)
    runs.push_back({std::move(chunk.sources), std::move(chunk.targets), std::move(chunk.weights)});
  edges.chunks = {};
  if (csr.weights == csr_weights::stored && edges.weights == detail::weight_kind::real)
    return build_csr<float>(std::move(runs), csr);
  return build_csr<std::uint32_t>(std::move(runs), csr);
}

/// Writes the cache; a failure (a read-only folder, a full disk) only costs the next load time,
/// so it is a warning. Returns whether the cache was written.
bool try_write_cache(const std::string& cache_path, const detail::cache_key& key, const detail::cached_graph& cached,
                     int threads) {
  try {
    detail::write_cache(cache_path, key, cached, threads);
    return true;
  } catch (const std::exception& error) {
    std::cerr << "bkt-sssp: warning: " << error.what() << " (the graph cache is not written)\n";
    return false;
  }
}

}  // namespace

loaded_graph load_graph(const std::string& path, const load_options& options) {
  const auto start = std::chrono::steady_clock::now();
  if (options.weights && options.weights->lo > options.weights->hi)
    throw apps::usage_error("random weights: lo (" + std::to_string(options.weights->lo) + ") is above hi (" +
                            std::to_string(options.weights->hi) + ")");
  const int threads = resolve_threads(options.threads);
  const detail::input_stamp stamp = detail::stamp_input(path);
  graph_format format = options.format == graph_format::automatic ? format_from_extension(path) : options.format;
  const detail::cache_key key{stamp, hash_options(format, options)};

  loaded_graph loaded;
  loaded.input_bytes = stamp.bytes;
  const auto finish = [&] {
    loaded.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return std::move(loaded);
  };
  if (options.use_cache) {
    loaded.cache_path = detail::cache_path_for(path, options.cache_dir);
    if (auto cached = detail::read_cache(loaded.cache_path, key, threads)) {
      loaded.graph = std::move(cached->graph);
      loaded.format = cached->format;
      loaded.index_base = cached->index_base;
      loaded.symmetric = cached->symmetric;
      loaded.from_cache = true;
      return finish();
    }
  }

  detail::parsed_edges edges;
  {
    const detail::text_buffer text = detail::read_input(path, threads);
    if (format == graph_format::automatic) format = format_from_content(text.view().substr(0, 64));
    edges = parse(text, format, {path, threads, !options.weights.has_value()});
  }  // the text is freed before the CSR is built
  loaded.graph = build_graph(edges, options, threads);
  loaded.format = edges.format;
  loaded.index_base = edges.index_base;
  loaded.symmetric = edges.symmetric || options.undirected;
  if (options.use_cache) {
    // The cache is written from the result, so it is moved out and back rather than copied.
    detail::cached_graph cached{std::move(loaded.graph), loaded.format, loaded.index_base, loaded.symmetric};
    if (!try_write_cache(loaded.cache_path, key, cached, threads)) loaded.cache_path.clear();
    loaded.graph = std::move(cached.graph);
  }
  return finish();
}

}  // namespace bkt::sssp
