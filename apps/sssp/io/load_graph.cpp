// load_graph: cache lookup, then read, parse, build, and write the cache for next time.
#include "io/load_graph.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <iostream>
#include <memory>
#include <vector>

#include "bkt_apps/app_error.hpp"
#include "bkt_apps/memory_limit.hpp"
#include "bkt_apps/stopwatch.hpp"
#include "build_csr.hpp"
#include "io/content_hash.hpp"
#include "io/graph_cache.hpp"
#include "io/input_file.hpp"
#include "io/memory_plan.hpp"
#include "io/parsers.hpp"
#include "bkt_apps/parallel_for.hpp"

namespace bkt::sssp {
namespace {

/// A cache larger than this many times its text (plus a little, so that a tiny graph's header does
/// not count) is not worth its disk: a 20-byte header that declares 3 * 10^8 vertices would
/// otherwise leave a 2.4 GB file.
constexpr std::int64_t max_cache_to_text_ratio = 4;
constexpr std::int64_t cache_size_allowance = 64 << 10;

/// The options that change the graph, hashed for the cache header. The format is the one the
/// extension or option names (automatic when the content decides: the same bytes decide alike).
std::uint64_t hash_options(graph_format format, const load_options& options) {
  const std::uint64_t fields[] = {static_cast<std::uint64_t>(format), options.undirected ? 1u : 0u,
                                  options.weights ? 1u : 0u, options.weights ? options.weights->lo : 0u,
                                  options.weights ? options.weights->hi : 0u, options.weights ? options.weights->seed : 0u};
  return detail::hash_bytes(fields, sizeof(fields));
}

std::unique_ptr<detail::window_parser> parser_for(graph_format format, const detail::parse_settings& settings) {
  switch (format) {
    case graph_format::dimacs:
      return detail::dimacs_parser(settings);
    case graph_format::matrix_market:
      return detail::matrix_market_parser(settings);
    case graph_format::edge_list:
    case graph_format::automatic:
      break;
  }
  return detail::edge_list_parser(settings);
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

/// The content hash of the input as read_input_windows computes it; nullopt when it cannot be read.
std::optional<std::uint64_t> hash_input(const std::string& path, std::int64_t bytes, int threads) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  const std::optional<std::uint64_t> hash = detail::hash_file(fd, bytes, threads);
  ::close(fd);
  return hash;
}

/// The cached graph when the cache stands for this input and these options and is sound; else
/// nullopt, and with --verbose a line on stderr saying why.
std::optional<detail::cached_graph> read_cache_for(const std::string& path, const std::string& cache_path,
                                                   const detail::input_stamp& stamp, std::uint64_t options_hash,
                                                   const load_options& options, int threads) {
  std::string reason;
  std::optional<detail::cached_graph> cached;
  if (const auto header = detail::read_cache_header(cache_path, reason)) {
    if (header->key.input.bytes != stamp.bytes || header->key.input.mtime_ns != stamp.mtime_ns) {
      reason = "the input's size or modification time differs from when it was written";
    } else if (header->key.options_hash != options_hash) {
      reason = "it was written with other options (--format, --undirected or --random-weights)";
    } else if (hash_input(path, stamp.bytes, threads) != header->key.content_hash) {
      // Same size and time, other bytes: an edit kept them (cp -p, rsync -t, touch -r).
      reason = "the input's content differs from when it was written";
    } else {
      apps::require_host_memory(options.memory_budget, detail::csr_run_bytes(header->num_vertices, header->num_edges),
                                path, "the cached graph of " + std::to_string(header->num_vertices) + " vertices and " +
                                          std::to_string(header->num_edges) + " edges");
      cached = detail::read_cache_arrays(cache_path, *header, threads, reason);
    }
  }
  if (!cached && options.verbose) std::cerr << "bkt-sssp: " << cache_path << ": cache not used: " << reason << "\n";
  return cached;
}

/// Writes the cache when it is worth it; a failure (a read-only folder, a full disk) only costs the
/// next load time, so it is a warning. Returns whether the cache was written.
bool write_cache_for(const std::string& cache_path, const detail::cache_key& key, const detail::cached_graph& cached,
                     std::int64_t text_bytes, const load_options& options, int threads) {
  const std::int64_t cache_bytes =
      std::visit([](const auto& graph) { return detail::cache_file_bytes(graph.num_vertices(), graph.num_edges()); },
                 cached.graph);
  std::string skipped;
  if (text_bytes < options.min_cache_text_bytes)
    skipped = "the text is under " + apps::format_size(options.min_cache_text_bytes) + ", quick to parse";
  else if ((cache_bytes - cache_size_allowance) / max_cache_to_text_ratio > text_bytes)
    skipped = "it would take " + apps::format_size(cache_bytes) + ", over " + std::to_string(max_cache_to_text_ratio) +
              " times the " + apps::format_size(text_bytes) + " of text";
  if (!skipped.empty()) {
    if (options.verbose) std::cerr << "bkt-sssp: " << cache_path << ": no cache written: " << skipped << "\n";
    return false;
  }
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
  const bkt::apps::stopwatch start;
  if (options.weights && options.weights->lo > options.weights->hi)
    throw apps::usage_error("random weights: lo (" + std::to_string(options.weights->lo) + ") is above hi (" +
                            std::to_string(options.weights->hi) + ")");
  const int threads = apps::resolve_threads(options.threads);
  const detail::input_stamp stamp = detail::stamp_input(path);
  graph_format format = options.format == graph_format::automatic ? format_from_extension(path) : options.format;
  const std::uint64_t options_hash = hash_options(format, options);
  // Only regular files: hashing a pipe to check a cache would consume it.
  const bool use_cache = options.use_cache && stamp.regular;

  loaded_graph loaded;
  loaded.input_bytes = stamp.bytes;
  const auto finish = [&] {
    loaded.seconds = start.seconds();
    return std::move(loaded);
  };
  if (use_cache) {
    loaded.cache_path = detail::cache_path_for(path, options.cache_dir);
    if (auto cached = read_cache_for(path, loaded.cache_path, stamp, options_hash, options, threads)) {
      loaded.graph = std::move(cached->graph);
      loaded.format = cached->format;
      loaded.index_base = cached->index_base;
      loaded.symmetric = cached->symmetric;
      loaded.from_cache = true;
      return finish();
    }
  }

  detail::parse_settings settings;
  settings.name = path;
  settings.threads = threads;
  settings.keep_weights = !options.weights.has_value();
  settings.add_reverse = options.undirected;
  settings.memory_budget = options.memory_budget;
  detail::read_settings reading;
  reading.threads = threads;
  reading.memory_budget = options.memory_budget;
  reading.window_bytes = options.gzip_window_bytes;
  std::unique_ptr<detail::window_parser> parser;
  const detail::input_summary input = detail::read_input_windows(path, reading, [&](const detail::text_window& window) {
    if (!parser) {
      if (format == graph_format::automatic) format = format_from_content(window.text.view().substr(0, 64));
      parser = parser_for(format, settings);
    }
    parser->parse_window(window);
  });  // the text is freed before the CSR is built
  detail::parsed_edges edges = parser->finish();
  loaded.graph = build_graph(edges, options, threads);
  loaded.format = edges.format;
  loaded.index_base = edges.index_base;
  loaded.symmetric = edges.symmetric || options.undirected;
  if (use_cache && !options.write_cache) loaded.cache_path.clear();
  if (use_cache && options.write_cache) {
    // The cache is written from the result, so it is moved out and back rather than copied.
    detail::cached_graph cached{std::move(loaded.graph), loaded.format, loaded.index_base, loaded.symmetric};
    const detail::cache_key key{stamp, input.content_hash, options_hash};
    if (!write_cache_for(loaded.cache_path, key, cached, input.text_bytes, options, threads)) loaded.cache_path.clear();
    loaded.graph = std::move(cached.graph);
  }
  return finish();
}

}  // namespace bkt::sssp
