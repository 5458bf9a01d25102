// bkt-sssp's command line, parsed.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "bkt_apps/cli.hpp"
#include "gpu/solver.hpp"
#include "io/graph_format.hpp"

namespace bkt::sssp::tool {

/// Where the sources come from: --source, --sources, --random-sources, or vertex 0 by default.
struct source_choice {
  std::optional<std::int64_t> vertex;        // --source V, in the file's numbering
  std::string dimacs_file;                   // --sources FILE (DIMACS .ss)
  std::optional<std::int64_t> random_count;  // --random-sources N
};

struct options {
  std::string graph_path;
  graph_format format = graph_format::automatic;
  bool undirected = false;
  std::optional<std::uint32_t> weight_lo;  // --random-weights LO:HI
  std::optional<std::uint32_t> weight_hi;
  std::uint64_t seed = 1;  // random weights and random sources
  std::string cache_dir;   // --cache DIR; empty: the reader's default
  bool no_cache = false;
  int threads = 0;  // loader threads; 0: all
  algorithm method = algorithm::delta_stepping;
  bool algorithm_given = false;  // --algorithm was on the command line
  std::optional<double> delta;  // --delta; nullopt: default_delta()
  source_choice sources;
  bool verify = false;
  std::string output;  // -o: distances; may hold "{source}"; empty: none
  bool parents = false;
  apps::common_flags common;
};

/// The name --algorithm takes for `method` ("delta", "near-far", "bellman-ford", "dijkstra-cpu").
std::string_view algorithm_name(algorithm method);

/// The text "{source}" in -o, replaced by each source's id.
inline constexpr std::string_view source_placeholder = "{source}";

/// Adds every flag and the GRAPH positional to `app`, parsing into `parsed`.
void add_options(CLI::App& app, options& parsed);

/// Checks what CLI11 cannot (throws a usage app_error): standard output wanted twice, --parents
/// without -o, several random sources into one -o file, --verify with the CPU chosen.
void finish_options(const options& parsed);

/// Before the graph is loaded, says what the options cannot do on this machine: --verify without
/// a usable GPU throws app_error (exit 3: there is no GPU run to verify); a GPU algorithm named by
/// --algorithm that will not run, or a --delta that the algorithm run does not use, is a warning
/// on stderr.
void check_device(const options& parsed);

/// Throws a usage app_error when `count` sources would all be written to one -o file.
void check_output_for_sources(const options& parsed, std::int64_t count);

/// The -o path for `file_source` (the source in the file's numbering): every "{source}" replaced.
std::string output_path_for(const std::string& pattern, std::int64_t file_source);

}  // namespace bkt::sssp::tool
