// build_csr: a stable two-pass counting sort by source, shaped for the cache. Writing each edge
// straight to its row's slot is a random access into arrays far larger than the cache (several
// seconds for 10^7 edges of a random graph); instead the rows are cut into at most 4096 blocks
// of 2^shift vertices, and the input into groups of consecutive edges, at most one per thread:
//   1. each group counts its edges per block (small, cached counters), checking the endpoints;
//   2. a scan gives every (block, group) pair its place, groups in input order within a block;
//   3. each group copies its edges, with their rows, into their blocks' ranges: a few thousand
//      sequential write streams, which the cache absorbs;
//   4. each block, on its own, counting-sorts its range by row (the range fits in cache) into
//      the final arrays and fills in its rows' offsets.
// Every step keeps input order, so each row lists its edges in input order, and neither the
// groups nor the blocks depend on how the threads share the work.
#include "build_csr.hpp"

#include <algorithm>
#include <bit>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "io/huge_pages.hpp"
#include "io/random_weight.hpp"
#include "bkt_apps/parallel_for.hpp"

namespace bkt::sssp {
namespace {

constexpr int block_bits = 12;                                   // up to 4096 blocks of rows
constexpr std::int64_t min_group_edges = std::int64_t{1} << 16;  // fewer are not worth a thread

/// The runs as one list: run r holds input edges [bases[r], bases[r + 1]).
struct input_edges {
  const std::vector<edge_list>& runs;
  std::vector<std::int64_t> bases;

  /// Calls visit(row, target, r, i) for input edges [begin, end) in order, edge i of run r being
  /// u -> v: it gives row u, and with add_reverse also row v (target u) unless it is a self-loop.
  template <class Visit>
  void for_each_row_edge(std::int64_t begin, std::int64_t end, bool add_reverse, Visit&& visit) const {
    auto r = static_cast<std::size_t>(std::upper_bound(bases.begin(), bases.end(), begin) - bases.begin() - 1);
    for (; r < runs.size() && bases[r] < end; ++r) {
      const vertex* const sources = runs[r].sources.data();
      const vertex* const targets = runs[r].targets.data();
      const std::int64_t last = std::min(end, bases[r + 1]) - bases[r];
      for (std::int64_t i = std::max(begin, bases[r]) - bases[r]; i < last; ++i) {
        const vertex u = sources[i];
        const vertex v = targets[i];
        visit(u, v, r, i);
        if (add_reverse && u != v) visit(v, u, r, i);
      }
    }
  }
};

/// An array of `size` elements left uninitialized: the threads that fill it take its first-touch
/// page faults, not a serial memset here.
template <class T>
std::unique_ptr<T[]> uninitialized_array(std::int64_t size) {
  auto array = std::make_unique_for_overwrite<T[]>(static_cast<std::size_t>(size));
  detail::prefer_huge_pages(array.get(), static_cast<std::size_t>(size) * sizeof(T));
  return array;
}

void check_sizes(const std::vector<edge_list>& runs, const csr_options& options) {
  if (options.num_vertices < 0 || options.num_vertices > (std::int64_t{1} << 32))
    throw std::invalid_argument("build_csr: vertex count out of range");
  for (const edge_list& run : runs)
    if (run.targets.size() != run.sources.size() ||
        (options.weights == csr_weights::stored && run.weights.size() != run.sources.size()))
      throw std::invalid_argument("build_csr: sources, targets and weights differ in size");
}

std::invalid_argument endpoint_outside(std::int64_t num_vertices) {
  return std::invalid_argument("build_csr: an edge endpoint is not below " + std::to_string(num_vertices));
}

}  // namespace

template <edge_weight Weight>
csr_graph<Weight> build_csr(std::vector<edge_list>&& runs_given, const csr_options& options) {
  std::vector<edge_list> runs = std::move(runs_given);  // ours to free once read
  check_sizes(runs, options);
  const std::int64_t n = options.num_vertices;
  const int threads = apps::resolve_threads(options.threads);
  input_edges input{runs, {0}};
  for (const edge_list& run : runs) input.bases.push_back(input.bases.back() + run.num_edges());
  const std::int64_t num_input = input.bases.back();
  if (n == 0) {
    if (num_input > 0) throw endpoint_outside(n);
    return {};
  }
  const auto last_vertex = static_cast<vertex>(n - 1);
  const auto vertex_bits = static_cast<int>(std::bit_width(static_cast<std::uint64_t>(n - 1)));
  const int shift = std::max(0, vertex_bits - block_bits);
  const std::int64_t num_blocks = ((n - 1) >> shift) + 1;
  const std::int64_t num_groups =
      std::clamp<std::int64_t>((num_input + min_group_edges - 1) / min_group_edges, 1, threads);
  const auto group_begin = [&](std::int64_t g) { return num_input * g / num_groups; };

  // 1. Edges per (group, block).
  std::vector<std::int64_t> cursors(static_cast<std::size_t>(num_groups * num_blocks), 0);
  apps::parallel_for(num_groups, 1, threads, [&](std::int64_t g, std::int64_t) {
    std::int64_t* const count = cursors.data() + g * num_blocks;
    bool outside = false;
    input.for_each_row_edge(group_begin(g), group_begin(g + 1), options.add_reverse,
                            [&](vertex row, vertex target, std::size_t, std::int64_t) {
                              if (row > last_vertex || target > last_vertex) outside = true;
                              else ++count[row >> shift];
                            });
    if (outside) throw endpoint_outside(n);
  });
  // 2. Where each (group, block) starts: blocks in order, groups in input order within a block.
  std::vector<std::int64_t> block_starts(static_cast<std::size_t>(num_blocks) + 1, 0);
  std::int64_t total = 0;
  for (std::int64_t b = 0; b < num_blocks; ++b) {
    block_starts[static_cast<std::size_t>(b)] = total;
    for (std::int64_t g = 0; g < num_groups; ++g) {
      std::int64_t& cursor = cursors[static_cast<std::size_t>(g * num_blocks + b)];
      const std::int64_t count = cursor;
      cursor = total;
      total += count;
    }
  }
  block_starts.back() = total;

  // Where steps 3 and 4 put the edges. With one run and no reverse edges, step 3 writes new
  // arrays and step 4 sorts them into the input's own, free by then: nothing is zero-filled.
  // Otherwise step 3 writes the final arrays and step 4 sorts each block in place through a copy
  // of it, so that no third array of all the edges sits beside the input and the output.
  const bool reuse_input = runs.size() == 1 && total == num_input;
  csr_graph<Weight> graph;
  const std::unique_ptr<vertex[]> rows = uninitialized_array<vertex>(total);
  std::unique_ptr<vertex[]> staged_targets;
  std::unique_ptr<Weight[]> staged_weights;
  if (reuse_input) {
    staged_targets = uninitialized_array<vertex>(total);
    staged_weights = uninitialized_array<Weight>(total);
  } else {
    detail::resize_with_huge_pages(graph.targets, static_cast<std::size_t>(total));
    detail::resize_with_huge_pages(graph.weights, static_cast<std::size_t>(total));
  }
  vertex* const block_targets = reuse_input ? staged_targets.get() : graph.targets.data();
  Weight* const block_weights = reuse_input ? staged_weights.get() : graph.weights.data();

  // 3. Edges and their rows into their blocks' ranges.
  const auto weight_of = [&](std::size_t r, std::int64_t i) {
    switch (options.weights) {
      case csr_weights::stored:
        return std::bit_cast<Weight>(runs[r].weights[static_cast<std::size_t>(i)]);
      case csr_weights::random:
        return static_cast<Weight>(detail::random_weight(options.seed, static_cast<std::uint64_t>(input.bases[r] + i),
                                                         options.lo, options.hi));
      case csr_weights::unit:
        break;
    }
    return Weight{1};
  };
  apps::parallel_for(num_groups, 1, threads, [&](std::int64_t g, std::int64_t) {
    std::int64_t* const cursor = cursors.data() + g * num_blocks;
    input.for_each_row_edge(group_begin(g), group_begin(g + 1), options.add_reverse,
                            [&](vertex row, vertex target, std::size_t r, std::int64_t i) {
                              const std::int64_t slot = cursor[row >> shift]++;
                              rows[slot] = row;
                              block_targets[slot] = target;
                              block_weights[slot] = weight_of(r, i);
                            });
  });
  cursors = {};
  if (reuse_input) {
    graph.targets = std::move(runs[0].targets);
    if constexpr (std::is_same_v<Weight, std::uint32_t>)
      if (runs[0].weights.size() == graph.targets.size()) graph.weights = std::move(runs[0].weights);
  }
  runs = {};  // every edge is in the blocks now
  if (reuse_input && graph.weights.empty()) detail::resize_with_huge_pages(graph.weights, static_cast<std::size_t>(total));

  // 4. Each block sorts its range by row (stable) and writes its rows' offsets.
  graph.offsets.clear();
  detail::resize_with_huge_pages(graph.offsets, static_cast<std::size_t>(n) + 1);
  graph.offsets.back() = total;
  apps::parallel_for(num_blocks, 1, threads, [&](std::int64_t b, std::int64_t) {
    const std::int64_t first_row = b << shift;
    const std::int64_t block_rows = std::min(n, (b + 1) << shift) - first_row;
    const std::int64_t begin = block_starts[static_cast<std::size_t>(b)];
    const std::int64_t end = block_starts[static_cast<std::size_t>(b) + 1];
    std::vector<std::int64_t> next(static_cast<std::size_t>(block_rows) + 1, 0);  // then: the row's next slot
    bool sorted = true;
    for (std::int64_t e = begin; e < end; ++e) {
      ++next[rows[e] - first_row + 1];
      sorted = sorted && (e == begin || rows[e - 1] <= rows[e]);
    }
    next[0] = begin;
    for (std::int64_t r = 0; r < block_rows; ++r) {
      graph.offsets[static_cast<std::size_t>(first_row + r)] = next[static_cast<std::size_t>(r)];
      next[static_cast<std::size_t>(r) + 1] += next[static_cast<std::size_t>(r)];
    }
    const vertex* from_targets = block_targets + begin;
    const Weight* from_weights = block_weights + begin;
    std::vector<vertex> target_copy;
    std::vector<Weight> weight_copy;
    if (!reuse_input) {  // in place: inputs sorted by source are there already, others read a copy
      if (sorted) return;
      target_copy.assign(from_targets, from_targets + (end - begin));
      weight_copy.assign(from_weights, from_weights + (end - begin));
      from_targets = target_copy.data();
      from_weights = weight_copy.data();
    }
    for (std::int64_t e = begin; e < end; ++e) {
      const auto slot = static_cast<std::size_t>(next[rows[e] - first_row]++);
      graph.targets[slot] = from_targets[e - begin];
      graph.weights[slot] = from_weights[e - begin];
    }
  });
  return graph;
}

template csr_graph<std::uint32_t> build_csr<std::uint32_t>(std::vector<edge_list>&&, const csr_options&);
template csr_graph<float> build_csr<float>(std::vector<edge_list>&&, const csr_options&);

}  // namespace bkt::sssp
