// build_csr: a stable two-pass counting sort by source, shaped for the cache. Writing each edge
// straight to its row's slot is a random access into arrays far larger than the cache (several
// seconds for 10^7 edges of a random graph); instead the rows are cut into blocks of 2^shift
// vertices (at most a few thousand blocks):
//   1. each thread counts the edges of its run of chunks per block (small, cached counters);
//   2. a scan gives every (block, thread) pair its place, threads in file order within a block;
//   3. each thread copies its edges, with their rows, into their blocks' ranges of the final
//      arrays: a few thousand sequential write streams, which the cache absorbs;
//   4. each block, on its own, counting-sorts its range by row (the range fits in cache) and
//      fills in its rows' offsets.
// Every step keeps file order, so each row lists its edges in file order.
#include "io/build_csr.hpp"

#include <algorithm>
#include <bit>
#include <vector>

#include "io/huge_pages.hpp"
#include "io/parallel.hpp"
#include "io/random_weight.hpp"

namespace bkt::sssp::detail {
namespace {

constexpr std::int64_t max_blocks = 4096;

/// Calls visit(row, target, chunk_position) for each edge of the chunk, in file order: an input
/// edge u -> v gives row u, and with add_reverse also row v (target u), unless it is a self-loop.
template <class Visit>
void for_each_row_edge(const edge_chunk& chunk, bool add_reverse, Visit&& visit) {
  const vertex* const sources = chunk.sources.data();
  const vertex* const targets = chunk.targets.data();
  const std::int64_t count = chunk.num_edges();
  for (std::int64_t i = 0; i < count; ++i) {
    const vertex u = sources[i];
    const vertex v = targets[i];
    visit(u, v, i);
    if (add_reverse && u != v) visit(v, u, i);
  }
}

/// Runs of consecutive chunks with about equal numbers of edges, one per thread: [first, last).
std::vector<std::size_t> split_chunks(const parsed_edges& edges, int threads) {
  const std::int64_t total = edges.num_edges();
  const auto groups = static_cast<std::size_t>(std::max<std::int64_t>(1, std::min<std::int64_t>(threads, static_cast<std::int64_t>(edges.chunks.size()))));
  std::vector<std::size_t> bounds{0};
  std::int64_t seen = 0;
  for (std::size_t c = 0; c < edges.chunks.size(); ++c) {
    seen += edges.chunks[c].num_edges();
    if (bounds.size() < groups && seen * static_cast<std::int64_t>(groups) >= total * static_cast<std::int64_t>(bounds.size()))
      bounds.push_back(c + 1);
  }
  while (bounds.size() <= groups) bounds.push_back(edges.chunks.size());
  bounds.back() = edges.chunks.size();
  return bounds;
}

template <class Weight>
csr_graph<Weight> build(parsed_edges& edges, const build_settings& settings) {
  const std::int64_t n = edges.num_vertices;
  const int threads = std::max(settings.threads, 1);
  int shift = 10;
  while ((n >> shift) >= max_blocks) ++shift;
  const std::int64_t num_blocks = std::max<std::int64_t>(1, (n + (std::int64_t{1} << shift) - 1) >> shift);
  const std::vector<std::size_t> group_bounds = split_chunks(edges, threads);
  const auto num_groups = static_cast<std::int64_t>(group_bounds.size() - 1);
  std::vector<std::int64_t> chunk_bases(edges.chunks.size() + 1, 0);
  for (std::size_t c = 0; c < edges.chunks.size(); ++c) chunk_bases[c + 1] = chunk_bases[c] + edges.chunks[c].num_edges();

  // 1. Edges per (group, block).
  std::vector<std::int64_t> cursors(static_cast<std::size_t>(num_groups * num_blocks), 0);
  parallel_for(threads, num_groups, [&](std::int64_t g) {
    std::int64_t* const count = cursors.data() + g * num_blocks;
    for (std::size_t c = group_bounds[static_cast<std::size_t>(g)]; c < group_bounds[static_cast<std::size_t>(g) + 1]; ++c)
      for_each_row_edge(edges.chunks[c], settings.add_reverse, [&](vertex row, vertex, std::int64_t) { ++count[row >> shift]; });
  });
  // 2. Where each (group, block) starts: blocks in order, groups in file order within a block.
  std::vector<std::int64_t> block_starts(static_cast<std::size_t>(num_blocks + 1), 0);
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

  // 3. Edges and their rows into their blocks' ranges.
  csr_graph<Weight> graph;
  resize_with_huge_pages(graph.targets, static_cast<std::size_t>(total));
  resize_with_huge_pages(graph.weights, static_cast<std::size_t>(total));
  std::vector<vertex> rows;
  resize_with_huge_pages(rows, static_cast<std::size_t>(total));
  const bool stored = !settings.random && edges.weights != weight_kind::unit;
  parallel_for(threads, num_groups, [&](std::int64_t g) {
    std::int64_t* const cursor = cursors.data() + g * num_blocks;
    vertex* const row_out = rows.data();
    vertex* const target_out = graph.targets.data();
    Weight* const weight_out = graph.weights.data();
    for (std::size_t c = group_bounds[static_cast<std::size_t>(g)]; c < group_bounds[static_cast<std::size_t>(g) + 1]; ++c) {
      const edge_chunk& chunk = edges.chunks[c];
      const std::int64_t first_index = chunk_bases[c];
      for_each_row_edge(chunk, settings.add_reverse, [&](vertex row, vertex target, std::int64_t i) {
        const std::int64_t slot = cursor[row >> shift]++;
        row_out[slot] = row;
        target_out[slot] = target;
        if (settings.random)
          weight_out[slot] = static_cast<Weight>(
              random_weight(settings.seed, static_cast<std::uint64_t>(first_index + i), settings.lo, settings.hi));
        else if (stored)
          weight_out[slot] = std::bit_cast<Weight>(chunk.weights[static_cast<std::size_t>(i)]);
        else
          weight_out[slot] = Weight{1};
      });
    }
  });
  edges.chunks.clear();  // everything is in the final arrays now
  edges.chunks.shrink_to_fit();

  // 4. Each block sorts its range by row (stable) and writes its rows' offsets.
  graph.offsets.clear();
  resize_with_huge_pages(graph.offsets, static_cast<std::size_t>(n + 1));
  graph.offsets[static_cast<std::size_t>(n)] = total;
  parallel_for(threads, num_blocks, [&](std::int64_t b) {
    const std::int64_t first_row = b << shift;
    const std::int64_t block_rows = std::min(n, (b + 1) << shift) - first_row;
    const std::int64_t begin = block_starts[static_cast<std::size_t>(b)];
    const std::int64_t end = block_starts[static_cast<std::size_t>(b) + 1];
    std::vector<std::int64_t> row_starts(static_cast<std::size_t>(block_rows) + 1, 0);
    bool sorted = true;
    for (std::int64_t e = begin; e < end; ++e) {
      ++row_starts[rows[static_cast<std::size_t>(e)] - first_row + 1];
      sorted = sorted && (e == begin || rows[static_cast<std::size_t>(e - 1)] <= rows[static_cast<std::size_t>(e)]);
    }
    for (std::int64_t r = 0; r < block_rows; ++r) {
      row_starts[static_cast<std::size_t>(r + 1)] += row_starts[static_cast<std::size_t>(r)];
      graph.offsets[static_cast<std::size_t>(first_row + r)] = begin + row_starts[static_cast<std::size_t>(r)];
    }
    if (sorted) return;  // inputs sorted by source are already in place
    const std::vector<vertex> block_targets(graph.targets.begin() + begin, graph.targets.begin() + end);
    const std::vector<Weight> block_weights(graph.weights.begin() + begin, graph.weights.begin() + end);
    for (std::int64_t e = begin; e < end; ++e) {
      const std::int64_t slot = begin + row_starts[rows[static_cast<std::size_t>(e)] - first_row]++;
      graph.targets[static_cast<std::size_t>(slot)] = block_targets[static_cast<std::size_t>(e - begin)];
      graph.weights[static_cast<std::size_t>(slot)] = block_weights[static_cast<std::size_t>(e - begin)];
    }
  });
  return graph;
}

}  // namespace

any_graph build_csr(parsed_edges& edges, const build_settings& settings) {
  const bool real = edges.weights == weight_kind::real && !settings.random;
  any_graph graph = real ? any_graph(build<float>(edges, settings)) : any_graph(build<std::uint32_t>(edges, settings));
  edges.chunks.clear();
  edges.chunks.shrink_to_fit();
  return graph;
}

}  // namespace bkt::sssp::detail
