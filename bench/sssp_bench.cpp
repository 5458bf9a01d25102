// Shortest paths, side by side on the same graphs in one process: delta-stepping (buckets by
// multisplit) at the default delta and at a quarter, four and sixteen times it, our Near-Far and
// Bellman-Ford, and Boost's Dijkstra on the CPU (one run).
// Edges are counted as directed CSR entries, as the seed paper (Davidson et al., IPDPS 2014)
// counts them: an undirected edge stored both ways is two. For symmetric graphs the undirected
// count (each pair once, a self-loop once) is given too, with its GTEPS, as the GAP suite reports.
// GTEPS = edges / the time of one run from one source.
// Times: "kernel" is the median CUDA-event time of a run (median over 3 sources x up to --repeats
// runs), without the distances' download; "end to end" is what bkt-sssp spends on one source from
// a file: the load (the parse of a real graph's file, under 16 MiB so never cached; for a generated
// graph the read of its binary cache, as a repeat run of a large input costs, less the hash of the
// input), the upload, and the median wall time of a run with the download.
// The byte limit is one read of the graph (offsets, targets, weights) and one write of the
// distances over the copy bandwidth measured in this run.
//
// --export DIR writes each graph (offsets, targets, weights as .npy) and its sources for
// scripts/scipy_sssp_bench.py, each (u, v) once at its lightest weight: SciPy would sum repeated
// entries, and sorting R-MAT 24's edges here, a vertex at a time on every core, spares the script
// a NumPy sort of all of them. The text-load rows time load_graph on R-MAT 22 written as an edge
// list: parsing it, then reading the binary cache it left.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "bkt/error.hpp"
#include "bkt/gpu.hpp"
#include "bkt/stream.hpp"
#include "bkt_apps/numeric_io.hpp"
#include "generate/grid.hpp"
#include "generate/rmat.hpp"
#include "gpu/solver.hpp"
#include "harness.hpp"
#include "io/graph_cache.hpp"
#include "io/load_graph.hpp"
#include "io/sources.hpp"
#include "bkt_apps/parallel_for.hpp"
#include "reference/dijkstra.hpp"

namespace {

using namespace bkt::sssp;
using bkt::apps::parallel_for;
using bkt::bench::timing;

struct bench_graph {
  std::string name;
  any_graph graph;
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

timing median_of(std::vector<double> ms) {
  std::sort(ms.begin(), ms.end());
  return {ms[ms.size() / 2], ms.front(), ms.back()};
}

/// Runs `method` from each source, `repeats` times each (fewer when one run takes over a second),
/// and returns the median CUDA-event time; `wall` gets the median wall time of the same runs (the
/// distances' download included), `distances` the last run's distances of source 0.
template <edge_weight W>
timing time_gpu(gpu_solver<W>& solver, algorithm method, distance_t<W> delta, const std::vector<vertex>& sources,
                int repeats, std::vector<distance_t<W>>& distances, gpu_run_stats& last, timing* wall = nullptr) {
  std::vector<double> ms, wall_ms;
  for (const vertex source : sources) {
    last = solver.run(source, method, delta, distances);  // warm-up
    const int runs = last.milliseconds > 1000 ? 1 : std::max(1, std::min(repeats, static_cast<int>(2000 / (last.milliseconds + 1))));
    for (int r = 0; r < runs; ++r) {
      const auto start = std::chrono::steady_clock::now();
      ms.push_back(solver.run(source, method, delta, distances).milliseconds);
      wall_ms.push_back(seconds_since(start) * 1e3);
    }
  }
  solver.run(sources.front(), method, delta, distances);
  if (wall != nullptr) *wall = median_of(wall_ms);
  return median_of(ms);
}

/// The undirected edges of a symmetric graph: each pair stored both ways counts once, a self-loop
/// (stored once) once; that is, the entries u -> v with u <= v.
template <edge_weight W>
std::int64_t undirected_edges(const csr_graph<W>& g) {
  std::atomic<std::int64_t> total{0};
  parallel_for(g.num_vertices(), 1 << 14, 0, [&](std::int64_t begin, std::int64_t end) {
    std::int64_t count = 0;
    for (std::int64_t u = begin; u < end; ++u)
      for (std::int64_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) count += g.targets[e] >= u;
    total += count;
  });
  return total;
}

/// How bkt-sssp would get the graph into memory, and what that costs.
struct graph_origin {
  double load_ms = 0;
  std::string load;  // how: "parse of FILE" or "binary cache read"
  bool symmetric = false;
};

/// The median time of reading `g` back from a binary cache written to `dir` (what a repeat run of a
/// large input costs, less the input's hash): the cache is written, read three times, removed.
template <edge_weight W>
double cache_load_ms(const csr_graph<W>& g, const std::string& dir, const std::string& name) {
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/" + name + ".bkt-csr";
  detail::write_cache(path, detail::cache_key{}, g, graph_format::edge_list, 0, true, 0);
  std::vector<double> ms;
  for (int r = 0; r < 3; ++r) {
    const auto start = std::chrono::steady_clock::now();
    std::string reason;
    const auto header = detail::read_cache_header(path, reason);
    const auto cached = header ? detail::read_cache_arrays(path, *header, 0, reason) : std::nullopt;
    if (!cached) {
      std::fprintf(stderr, "sssp_bench: %s: %s\n", path.c_str(), reason.c_str());
      std::exit(1);
    }
    ms.push_back(seconds_since(start) * 1e3);
  }
  std::filesystem::remove(path);
  return median_of(ms).median_ms;
}

/// g with each (u, v) once, at its lightest weight, and every vertex's targets ascending.
template <edge_weight W>
csr_graph<W> lightest_parallel_edges(const csr_graph<W>& g) {
  const std::int64_t n = g.num_vertices();
  constexpr std::int64_t grain = 1 << 14;
  std::vector<std::pair<vertex, W>> edges(g.targets.size());
  std::vector<std::int64_t> offsets(n + 1, 0);
  parallel_for(n, grain, 0, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t v = begin; v < end; ++v) {
      for (std::int64_t e = g.offsets[v]; e < g.offsets[v + 1]; ++e) edges[e] = {g.targets[e], g.weights[e]};
      const auto first = edges.begin() + g.offsets[v];
      const auto last = edges.begin() + g.offsets[v + 1];
      std::sort(first, last);  // by target, then weight: the first of each target is its lightest
      offsets[v + 1] = std::unique(first, last, [](const auto& a, const auto& b) { return a.first == b.first; }) - first;
    }
  });
  std::partial_sum(offsets.begin(), offsets.end(), offsets.begin());
  csr_graph<W> out;
  out.targets.resize(offsets[n]);
  out.weights.resize(offsets[n]);
  parallel_for(n, grain, 0, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t v = begin; v < end; ++v)
      for (std::int64_t i = 0; i < offsets[v + 1] - offsets[v]; ++i)
        std::tie(out.targets[offsets[v] + i], out.weights[offsets[v] + i]) = edges[g.offsets[v] + i];
  });
  out.offsets = std::move(offsets);
  return out;
}

template <edge_weight W>
void export_for_scipy(const std::string& dir, const std::string& name, const csr_graph<W>& g,
                      const std::vector<vertex>& sources) {
  namespace fs = std::filesystem;
  const fs::path folder = fs::path(dir) / name;
  fs::create_directories(folder);
  auto write = [&](const char* file, const auto& values) {
    bkt::apps::output_options out;
    out.path = (folder / file).string();
    bkt::apps::write_array(out, bkt::apps::file_format::npy, bkt::apps::numeric_array::copy_of(std::span(values)));
  };
  const csr_graph<W> simple = lightest_parallel_edges(g);
  write("offsets.npy", simple.offsets);
  write("targets.npy", simple.targets);
  write("weights.npy", simple.weights);
  write("sources.npy", sources);
}

template <edge_weight W>
void bench_one(bkt::bench::report& rep, const bkt::bench::options& opts, const std::string& name,
               const csr_graph<W>& graph, const graph_origin& origin, cudaStream_t stream, const std::string& export_dir,
               const std::vector<double>& delta_factors, nlohmann::json& extra) {
  using D = distance_t<W>;
  const std::vector<vertex> sources = random_sources(graph, 3, 7);
  if (sources.empty()) return;
  if (!export_dir.empty()) export_for_scipy(export_dir, name, graph, sources);
  const auto upload_start = std::chrono::steady_clock::now();
  gpu_solver<W> solver(graph, stream);
  BKT_CUDA_CHECK(cudaStreamSynchronize(stream));
  const double upload_ms = seconds_since(upload_start) * 1e3;
  const D delta = default_delta(graph).delta;
  const double edges = static_cast<double>(graph.num_edges());
  const std::int64_t pairs = origin.symmetric ? undirected_edges(graph) : 0;
  const double limit = 8.0 * static_cast<double>(graph.num_vertices() + 1) + (4.0 + sizeof(W)) * edges +
                       8.0 * static_cast<double>(graph.num_vertices());
  const std::string model = "offsets + targets + weights read once, distances written once";
  std::vector<D> ours(graph.num_vertices()), theirs(graph.num_vertices());
  gpu_run_stats stats;
  timing delta_wall;
  const timing delta_time =
      time_gpu(solver, algorithm::delta_stepping, delta, sources, opts.repeats, ours, stats, &delta_wall);
  const double end_to_end_ms = origin.load_ms + upload_ms + delta_wall.median_ms;
  nlohmann::json record = {{"graph", name},
                           {"vertices", graph.num_vertices()},
                           {"edges", graph.num_edges()},
                           {"edges_counted_as", "directed CSR entries"},
                           {"symmetric", origin.symmetric},
                           {"delta", static_cast<double>(delta)},
                           {"delta_rounds", stats.rounds},
                           {"delta_relaxed_edges", stats.relaxed_edges},
                           {"load", origin.load},
                           {"load_ms", origin.load_ms},
                           {"upload_ms", upload_ms},
                           {"run_wall_ms", delta_wall.median_ms},
                           {"end_to_end_ms", end_to_end_ms}};
  if (origin.symmetric) record["undirected_edges"] = pairs;

  auto add = [&](const std::string& what, const timing& ours_time, const std::string& peer, const timing& peer_time) {
    bkt::bench::comparison row;
    row.name = name + " " + what;
    row.elements = edges;
    row.limit_bytes = limit;
    row.byte_model = model;
    row.ours = ours_time;
    row.peer_name = peer;
    row.peer = peer_time;
    rep.add(row);
  };
  auto expect_same = [&](const char* what) {
    if (ours != theirs) {
      std::fprintf(stderr, "sssp_bench: %s: %s distances differ from delta-stepping's\n", name.c_str(), what);
      std::exit(1);
    }
  };

  for (const double factor : delta_factors) {
    D scaled = static_cast<D>(static_cast<double>(delta) * factor);
    if (scaled <= D{0}) scaled = D{1};
    gpu_run_stats s;
    const timing t = time_gpu(solver, algorithm::delta_stepping, scaled, sources, opts.repeats, theirs, s);
    expect_same("delta-stepping (other delta)");
    add("delta-stepping delta x" + std::to_string(factor).substr(0, 4), t, "delta-stepping default delta", delta_time);
    record["delta_x" + std::to_string(factor).substr(0, 4) + "_rounds"] = s.rounds;
  }
  gpu_run_stats near_far_stats;
  const timing near_far = time_gpu(solver, algorithm::near_far, delta, sources, opts.repeats, theirs, near_far_stats);
  expect_same("near-far");
  add("delta-stepping", delta_time, "our near-far", near_far);
  record["near_far_rounds"] = near_far_stats.rounds;
  gpu_run_stats bf_stats;
  const timing bellman_ford = time_gpu(solver, algorithm::bellman_ford, delta, sources, opts.repeats, theirs, bf_stats);
  expect_same("bellman-ford");
  add("delta-stepping", delta_time, "our bellman-ford", bellman_ford);
  record["bellman_ford_rounds"] = bf_stats.rounds;
  const auto boost_start = std::chrono::steady_clock::now();
  const std::vector<D> reference = ref::dijkstra(graph, sources.front());
  const double boost_ms = seconds_since(boost_start) * 1e3;
  if (reference != ours) {
    std::fprintf(stderr, "sssp_bench: %s: GPU distances differ from Boost's Dijkstra\n", name.c_str());
    std::exit(1);
  }
  add("delta-stepping", delta_time, "boost dijkstra (cpu, 1 run)", timing{boost_ms, boost_ms, boost_ms});
  record["boost_ms"] = boost_ms;
  D checksum{0};
  for (const D d : ours)
    if (d != unreachable<D>()) checksum += d;
  record["edges"] = graph.num_edges();  // with parallel edges: GTEPS counts the graph as loaded
  record["sources"] = sources;
  record["source"] = sources.front();
  record["checksum"] = static_cast<double>(checksum);
  record["delta_ms"] = delta_time.median_ms;
  record["gteps"] = edges / (delta_time.median_ms * 1e6);
  if (origin.symmetric) record["gteps_undirected"] = static_cast<double>(pairs) / (delta_time.median_ms * 1e6);
  extra.push_back(record);
  const std::string undirected =
      origin.symmetric ? "; " + std::to_string(pairs) + " undirected, GAP's count" : std::string("; directed graph");
  char undirected_gteps[64] = "";
  if (origin.symmetric)
    std::snprintf(undirected_gteps, sizeof undirected_gteps, ", %.2f undirected",
                  static_cast<double>(pairs) / (delta_time.median_ms * 1e6));
  std::printf("%s: %lld vertices, %lld edges (directed CSR entries%s), delta %g: delta-stepping %.3f ms (%.2f GTEPS%s, "
              "%lld rounds), near-far %.3f ms, bellman-ford %.3f ms; end to end %.1f ms = load %.1f ms (%s) + upload "
              "%.1f ms + run with download %.3f ms\n",
              name.c_str(), static_cast<long long>(graph.num_vertices()), static_cast<long long>(graph.num_edges()),
              undirected.c_str(), static_cast<double>(delta), delta_time.median_ms, edges / (delta_time.median_ms * 1e6),
              undirected_gteps, static_cast<long long>(stats.rounds), near_far.median_ms, bellman_ford.median_ms,
              end_to_end_ms, origin.load_ms, origin.load.c_str(), upload_ms, delta_wall.median_ms);
  std::fflush(stdout);
}

/// Writes an R-MAT graph as a text edge list and times load_graph on it twice: parsing, then the cache.
nlohmann::json time_text_load(const csr_graph<std::uint32_t>& graph, const std::string& dir) {
  namespace fs = std::filesystem;
  fs::create_directories(dir);
  const std::string path = dir + "/rmat22.txt";
  {
    std::ofstream out(path);
    std::string line;
    for (std::int64_t u = 0; u < graph.num_vertices(); ++u)
      for (std::int64_t e = graph.offsets[u]; e < graph.offsets[u + 1]; ++e)
        out << u << ' ' << graph.targets[e] << ' ' << graph.weights[e] << '\n';
  }
  fs::remove(path + ".bkt-csr");
  load_options options;
  const loaded_graph parsed = load_graph(path, options);
  const loaded_graph cached = load_graph(path, options);
  const double mb = static_cast<double>(parsed.input_bytes) / 1e6;
  std::printf("load rmat22 text (%.0f MB): parse %.3f s (%.0f MB/s), from cache %.3f s (cache used: %s)\n", mb,
              parsed.seconds, mb / parsed.seconds, cached.seconds, cached.from_cache ? "yes" : "NO");
  return {{"text_mb", mb}, {"parse_s", parsed.seconds}, {"cache_s", cached.seconds}, {"from_cache", cached.from_cache}};
}

}  // namespace

int main(int argc, char** argv) {
  std::string export_dir;
  std::string data_dir = BKT_DATA_DIR;
  std::string scratch_dir = "/tmp/bkt-sssp-bench";
  std::string only;  // --graphs a,b: only these graphs (names as printed)
  std::vector<double> delta_factors = {0.25, 4.0, 16.0};  // --delta-factors: multiples of the default delta
  // The harness parses --repeats and --json; the rest are this benchmark's.
  std::vector<char*> harness_args = {argv[0]};
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--export" && i + 1 < argc) export_dir = argv[++i];
    else if (arg == "--data" && i + 1 < argc) data_dir = argv[++i];
    else if (arg == "--scratch" && i + 1 < argc) scratch_dir = argv[++i];
    else if (arg == "--graphs" && i + 1 < argc) only = "," + std::string(argv[++i]) + ",";
    else if (arg == "--delta-factors" && i + 1 < argc) {
      delta_factors.clear();
      std::istringstream list(argv[++i]);
      for (std::string item; std::getline(list, item, ',');) delta_factors.push_back(std::stod(item));
    }
    else harness_args.push_back(argv[i]);
  }
  return bkt::bench::run_main(
      static_cast<int>(harness_args.size()), harness_args.data(), "sssp_bench",
      "Shortest paths: delta-stepping vs Near-Far, Bellman-Ford and Boost's Dijkstra (also --export DIR, --data DIR, "
      "--scratch DIR, --graphs NAME,NAME, --delta-factors X,Y; the R-MAT graphs of mean degree 8 and 16, rmat22-ef4 "
      "and rmat22-ef8, run only when --graphs names them)",
      [&](const bkt::bench::options& opts, cudaStream_t stream) {
        bkt::bench::report rep(
            "sssp (edges = directed CSR entries, as Davidson et al. count them; GTEPS = edges / time of one run from "
            "one source; each graph's line below adds GAP's undirected count for symmetric graphs)",
            opts, stream);
        nlohmann::json graphs = nlohmann::json::array();
        nlohmann::json load;
        auto wanted = [&](const std::string& name) { return only.empty() || only.find("," + name + ",") != std::string::npos; };
        struct rmat_spec {
          std::string name;
          int scale;
          int edge_factor;
          bool by_default;
        };
        for (const rmat_spec r : {rmat_spec{"rmat22", 22, 16, true}, rmat_spec{"rmat24", 24, 16, true},
                                   rmat_spec{"rmat22-ef4", 22, 4, false}, rmat_spec{"rmat22-ef8", 22, 8, false}}) {
          if (r.by_default ? !wanted(r.name) : only.find("," + r.name + ",") == std::string::npos) continue;
          generate::rmat_options rmat;
          rmat.scale = r.scale;
          rmat.edge_factor = r.edge_factor;
          rmat.undirected = true;
          const auto start = std::chrono::steady_clock::now();
          const csr_graph<std::uint32_t> g = generate::rmat_graph(rmat);
          std::printf("generated %s in %.2f s\n", r.name.c_str(), seconds_since(start));
          if (r.name == "rmat22") load = time_text_load(g, scratch_dir);
          const graph_origin origin{cache_load_ms(g, scratch_dir, r.name), "binary cache read", true};
          bench_one(rep, opts, r.name, g, origin, stream, export_dir, delta_factors, graphs);
        }
        for (const std::int64_t side : {2048, 4096}) {
          if (!wanted("grid" + std::to_string(side))) continue;
          generate::grid_options grid;
          grid.width = grid.height = side;
          const std::string name = "grid" + std::to_string(side);
          const csr_graph<std::uint32_t> g = generate::grid_graph(grid);
          const graph_origin origin{cache_load_ms(g, scratch_dir, name), "binary cache read", true};
          bench_one(rep, opts, name, g, origin, stream, export_dir, delta_factors, graphs);
        }
        struct real_graph {
          const char* file;
          const char* name;
          bool undirected;
          bool random_weights;
        };
        for (const real_graph r : {real_graph{"graphs/rome99.gr", "rome99", false, false},
                                   real_graph{"graphs/luxembourg_osm.mtx", "luxembourg_osm", false, true},
                                   real_graph{"graphs/facebook_combined.txt", "facebook", true, true}}) {
          if (!wanted(r.name)) continue;
          load_options options;
          options.use_cache = false;
          options.undirected = r.undirected;
          if (r.random_weights) options.weights = random_weights{1, 255, 1};
          std::vector<double> load_ms;  // the median of three loads, as the tool would do one
          loaded_graph loaded;
          for (int i = 0; i < 3; ++i) {
            loaded = load_graph(data_dir + "/" + r.file, options);
            load_ms.push_back(loaded.seconds * 1e3);
          }
          const graph_origin origin{median_of(load_ms).median_ms, std::string("parse of ") + r.file, loaded.symmetric};
          std::visit(
              [&](const auto& g) { bench_one(rep, opts, r.name, g, origin, stream, export_dir, delta_factors, graphs); },
              loaded.graph);
        }
        rep.finish();
        if (!opts.json_path.empty()) {
          std::ifstream in(opts.json_path);
          nlohmann::json all = nlohmann::json::parse(in, nullptr, false);
          if (all.is_discarded()) all = nlohmann::json::object();
          all["graphs"] = graphs;
          all["load"] = load;
          std::ofstream(opts.json_path) << all.dump(2) << '\n';
        }
      });
}
