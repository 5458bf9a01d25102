// The grid's CSR is written directly, row by row in parallel: every vertex's degree is known from
// its position, so no edge list or sort is needed. Each link draws its weight from its own index,
// so the two directions agree without any coordination.
#include "generate/grid.hpp"

#include <stdexcept>
#include <vector>

#include "generate/counter_random.hpp"
#include "bkt_apps/parallel_for.hpp"

namespace bkt::sssp::generate {

csr_graph<std::uint32_t> grid_graph(const grid_options& options) {
  const std::int64_t width = options.width, height = options.height;
  if (width < 0 || height < 0) throw std::invalid_argument("grid: negative size");
  if (width > 0 && height > (std::int64_t{1} << 32) / width) throw std::invalid_argument("grid: over 2^32 vertices");
  check_weight_range(options.weights);
  const std::int64_t num_vertices = width * height;
  csr_graph<std::uint32_t> graph;
  graph.offsets.assign(static_cast<std::size_t>(num_vertices) + 1, 0);
  if (num_vertices == 0) return graph;

  // Links are numbered: horizontal (x, y)-(x + 1, y) first, row by row, then vertical (x, y)-(x, y + 1).
  const std::int64_t horizontal_links = (width - 1) * height;
  const auto horizontal = [&](std::int64_t x, std::int64_t y) { return y * (width - 1) + x; };
  const auto vertical = [&](std::int64_t x, std::int64_t y) { return horizontal_links + y * width + x; };
  const std::uint64_t key = stream_key(options.seed, 3);
  const auto weight = [&](std::int64_t link) {
    const auto bits = static_cast<std::uint32_t>(random_bits(key, static_cast<std::uint64_t>(link)));
    return uniform_in(bits, options.weights.lo, options.weights.hi);
  };

  // Row starts first (a prefix over rows), then each row fills its own range.
  std::vector<std::int64_t> row_start(static_cast<std::size_t>(height) + 1, 0);
  for (std::int64_t y = 0; y < height; ++y) {
    const std::int64_t row_edges = 2 * (width - 1) + width * (std::int64_t{y > 0} + (y + 1 < height));
    row_start[y + 1] = row_start[y] + row_edges;
  }
  graph.targets.resize(static_cast<std::size_t>(row_start[height]));
  graph.weights.resize(graph.targets.size());
  apps::parallel_for(height, 64, options.threads, [&](std::int64_t first_row, std::int64_t end_row) {
    for (std::int64_t y = first_row; y < end_row; ++y) {
      std::int64_t slot = row_start[y];
      for (std::int64_t x = 0; x < width; ++x) {
        const std::int64_t v = y * width + x;
        const auto add = [&](std::int64_t to, std::int64_t link) {
          graph.targets[slot] = static_cast<vertex>(to);
          graph.weights[slot] = weight(link);
          ++slot;
        };
        if (y > 0) add(v - width, vertical(x, y - 1));
        if (x > 0) add(v - 1, horizontal(x - 1, y));
        if (x + 1 < width) add(v + 1, horizontal(x, y));
        if (y + 1 < height) add(v + width, vertical(x, y));
        graph.offsets[v + 1] = slot;
      }
    }
  });
  return graph;
}

}  // namespace bkt::sssp::generate
