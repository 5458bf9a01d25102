// bkt-sssp's flags and their help texts: the policies the help states are the tool's contract.
#include "options.hpp"

#include <cctype>
#include <charconv>
#include <cstdio>
#include <map>

#include "bkt/gpu.hpp"
#include "bkt_apps/app_error.hpp"
#include "bkt_apps/number_options.hpp"
#include "bkt_apps/numeric_io.hpp"

namespace bkt::sssp::tool {
namespace {

/// "LO:HI" with 0 <= LO <= HI < 2^32; nullopt when the text is anything else.
std::optional<std::pair<std::uint32_t, std::uint32_t>> parse_weight_range(std::string_view text) {
  const std::size_t colon = text.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  const auto parse = [](std::string_view part) -> std::optional<std::uint32_t> {
    std::uint32_t value = 0;
    const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), value);
    if (part.empty() || error != std::errc() || end != part.data() + part.size()) return std::nullopt;
    return value;
  };
  const auto lo = parse(text.substr(0, colon)), hi = parse(text.substr(colon + 1));
  if (!lo || !hi || *lo > *hi) return std::nullopt;
  return std::pair{*lo, *hi};
}

const std::map<std::string, algorithm>& algorithms_by_name() {
  static const std::map<std::string, algorithm> names{{"delta", algorithm::delta_stepping},
                                                      {"near-far", algorithm::near_far},
                                                      {"bellman-ford", algorithm::bellman_ford},
                                                      {"dijkstra-cpu", algorithm::dijkstra_cpu}};
  return names;
}

/// --algorithm's names, in any case, turned into the enum's number for CLI11 to store. CLI11's
/// CheckedTransformer would also take the numbers themselves ("--algorithm 2") and list them in
/// its message.
CLI::Validator algorithm_names() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        std::string lower;
        for (const char c : text) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        const auto found = algorithms_by_name().find(lower);
        if (found == algorithms_by_name().end())
          return apps::quoted_excerpt(text) + " is not one of delta, near-far, bellman-ford, dijkstra-cpu";
        text = std::to_string(static_cast<int>(found->second));
        return std::string();
      },
      "");
}

}  // namespace

std::string_view algorithm_name(algorithm method) {
  switch (method) {
    case algorithm::delta_stepping:
      return "delta";
    case algorithm::near_far:
      return "near-far";
    case algorithm::bellman_ford:
      return "bellman-ford";
    case algorithm::dijkstra_cpu:
      break;
  }
  return "dijkstra-cpu";
}

void add_options(CLI::App& app, options& parsed) {
  app.add_option("GRAPH", parsed.graph_path,
                 "graph file: DIMACS .gr, MatrixMarket .mtx or an edge list (.txt, .el, ...), optionally .gz")
      ->required()
      ->type_name("");
  app.add_option_function<std::string>(
         "--format", [&parsed](const std::string& name) { parsed.format = parse_format_name(name); },
         "graph format: dimacs, matrix-market, edge-list or auto (default: from the extension, else the content)")
      ->type_name("FORMAT")
      ->check(CLI::Validator(
          [](std::string& name) -> std::string {
            try {
              parse_format_name(name);
              return {};
            } catch (const std::exception& e) {
              return e.what();
            }
          },
          ""));
  app.add_flag("--undirected", parsed.undirected, "add the reverse of every edge, with the same weight");
  app.add_option_function<std::string>(
         "--random-weights",
         [&parsed](const std::string& text) {
           const auto range = parse_weight_range(text);
           parsed.weight_lo = range->first;
           parsed.weight_hi = range->second;
         },
         "replace the file's weights (or give an unweighted graph weights) uniform integers in [LO, HI], "
         "drawn from --seed and each edge's position in the file")
      ->type_name("LO:HI")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            return parse_weight_range(text) ? std::string() : "'" + text + "' is not LO:HI with 0 <= LO <= HI < 2^32";
          },
          ""));
  app.add_option("--seed", parsed.seed, "seed of --random-weights and --random-sources (default 1)")->type_name("S");
  app.add_option("--cache", parsed.cache_dir,
                 "directory of parsed-graph caches (default: beside the input, GRAPH.bkt-csr): a graph of 16 MiB of "
                 "text or more loads from its cache next time, while the input's size, time and content are the "
                 "same; --verbose says why a cache was not used or not written")
      ->type_name("DIR");
  app.add_flag("--no-cache", parsed.no_cache, "neither read nor write a cache");
  app.add_option("--threads", parsed.threads, "threads for reading the graph (default: all cores)")
      ->type_name("N")
      ->transform(bkt::apps::whole_number(0, 4096));
  app.add_option("--algorithm", parsed.method,
                 "delta (delta-stepping, default), near-far, bellman-ford (on the GPU) or dijkstra-cpu (Boost's "
                 "Dijkstra on the CPU, as --cpu); without a usable GPU a GPU algorithm gives way to dijkstra-cpu, "
                 "with a warning")
      ->type_name("NAME")
      ->transform(algorithm_names())
      ->each([&parsed](const std::string&) { parsed.algorithm_given = true; });
  app.add_option("--delta", parsed.delta,
                 "bucket width of delta and near-far, finite and > 0 (default: chosen from the graph's mean weight "
                 "and degree, see --verbose); a whole number for integer weights")
      ->type_name("D")
      ->check(bkt::apps::number_above(0));
  auto* source = app.add_option("--source", parsed.sources.vertex,
                                "the one source, in the file's numbering (1-based for DIMACS and MatrixMarket)")
                     ->type_name("V");
  auto* sources = app.add_option("--sources", parsed.sources.dimacs_file,
                                 "sources from a DIMACS .ss file ('s V' lines, 1-based): one run each")
                      ->type_name("FILE");
  auto* random =
      app.add_option(
             "--random-sources", parsed.sources.random_count,
             "N distinct sources drawn from --seed among the vertices with out-edges (fewer when fewer have any)")
          ->type_name("N")
          ->transform(bkt::apps::whole_number(1));
  source->excludes(sources)->excludes(random);
  sources->excludes(random);
  app.add_flag("--verify", parsed.verify,
               "check every GPU run against the CPU reference; exit 1 at the first vertex that differs, 3 when no "
               "GPU is usable (nothing to verify)");
  app.add_option("-o,--output", parsed.output,
                 "write the distances to FILE: .npy (u64, or f64 for real weights; unreachable = 2^64-1 or inf), else "
                 "text lines 'VERTEX DISTANCE' ('inf': unreachable); '-': standard output; with several sources FILE "
                 "must contain {source}, replaced by the source's id")
      ->type_name("FILE");
  app.add_flag("--parents", parsed.parents,
               "with -o: also write each vertex's parent in a shortest-path tree (text: a third column, '-' for "
               "none; .npy: FILE-parents.npy, 0-based, -1 for none)");
  apps::add_common_flags(app, parsed.common, "bkt-sssp");
  app.footer(
      "Without a source option the source is the first vertex (internal vertex 0), printed in the file's "
      "numbering: 1 for DIMACS and MatrixMarket, 0 for edge lists. Vertex ids in messages, outputs and the "
      "summary use the file's numbering.\n"
      "The summary (standard output, or standard error when -o - or --json - takes standard output) has a line "
      "per source: the vertices reached, the sum of finite distances (a checksum), the largest finite distance, "
      "the run's time and GTEPS (graph edges / time), then a line on the graph and its load.\n"
      "--json FILE: {tool, version, graph: {path, format, vertices, edges, weights, symmetric, index_base, "
      "from_cache, cache_path, input_bytes, load_seconds, megabytes_per_second}, device, algorithm, delta, "
      "delta_reason, verified, sources: [{source, reached, checksum, max_distance, milliseconds, gteps, "
      "algorithm, rounds, relaxed_edges, output}], seconds: {load, run, total}}.\n"
      "Exit status: 0 ok, 1 bad input, I/O failure, a graph larger than --max-memory or --verify mismatch, 2 "
      "usage error, 3 GPU failure, out of device memory or --verify without a usable GPU.");
}

void finish_options(const options& parsed) {
  if (parsed.common.json_path == "-" && parsed.output == "-")
    throw apps::usage_error("--json - and -o - cannot share standard output: give one of them a FILE");
  if (parsed.parents && parsed.output.empty()) throw apps::usage_error("--parents needs -o FILE");
  if (parsed.verify && (parsed.common.cpu || parsed.method == algorithm::dijkstra_cpu))
    throw apps::usage_error(std::string("--verify compares a GPU run with the CPU reference: it cannot go with ") +
                            (parsed.common.cpu ? "--cpu" : "--algorithm dijkstra-cpu"));
  if (parsed.sources.random_count) check_output_for_sources(parsed, *parsed.sources.random_count);
}

void check_device(const options& parsed) {
  const bool wants_gpu = parsed.method != algorithm::dijkstra_cpu && !parsed.common.cpu;
  const bool on_gpu = wants_gpu && bkt::gpu_available();
  const std::string no_gpu = on_gpu ? std::string() : "no usable GPU (" + bkt::gpu_unavailable_reason() + ")";
  if (parsed.verify && !on_gpu)  // --verify with --cpu or dijkstra-cpu is a usage error already
    throw apps::app_error("--verify: " + no_gpu + ": there is no GPU run to verify", apps::exit_gpu_failure);
  const std::string named = "--algorithm " + std::string(algorithm_name(parsed.method));
  if (parsed.algorithm_given && parsed.method != algorithm::dijkstra_cpu && !on_gpu)
    std::fprintf(stderr, "bkt-sssp: warning: %s: %s runs on the GPU only; running Dijkstra on the CPU\n",
                 parsed.common.cpu ? "--cpu" : no_gpu.c_str(), named.c_str());
  const algorithm run = on_gpu ? parsed.method : algorithm::dijkstra_cpu;
  if (parsed.delta && run != algorithm::delta_stepping && run != algorithm::near_far) {
    const std::string why = run == algorithm::dijkstra_cpu && wants_gpu ? " (" + no_gpu + ")" : "";
    std::fprintf(stderr, "bkt-sssp: warning: --delta has no effect on %s%s\n", std::string(algorithm_name(run)).c_str(),
                 why.c_str());
  }
}

void check_output_for_sources(const options& parsed, std::int64_t count) {
  if (count > 1 && !parsed.output.empty() && parsed.output.find(source_placeholder) == std::string::npos)
    throw apps::usage_error("-o " + parsed.output + ": " + std::to_string(count) +
                            " sources need one file each: put {source} in the name");
}

std::string output_path_for(const std::string& pattern, std::int64_t file_source) {
  std::string path = pattern;
  const std::string id = std::to_string(file_source);
  for (std::size_t at = path.find(source_placeholder); at != std::string::npos;
       at = path.find(source_placeholder, at + id.size()))
    path.replace(at, source_placeholder.size(), id);
  return path;
}

}  // namespace bkt::sssp::tool
