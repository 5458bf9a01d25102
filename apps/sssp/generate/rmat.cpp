// Each edge descends `scale` levels of the adjacency matrix, choosing a quadrant per level from
// 16 random bits; an edge's bits come from its own counter range, so threads split edges freely.
#include "generate/rmat.hpp"

#include <stdexcept>

#include "generate/counter_random.hpp"
#include "build_csr.hpp"
#include "bkt_apps/parallel_for.hpp"

namespace bkt::sssp::generate {
namespace {

// Quadrant thresholds on 16-bit draws: a, a + b, a + b + c of 2^16 (Graph500 specification 3.0),
// each within 2^-16 of the exact value. Sixteen bits a level let one 64-bit draw serve four levels,
// which halves the cost of an edge compared with 32 bits a level.
constexpr std::uint32_t threshold(double probability) {
  return static_cast<std::uint32_t>(probability * 65536.0 + 0.5);
}
constexpr std::uint32_t below_a = threshold(0.57);
constexpr std::uint32_t below_ab = threshold(0.57 + 0.19);
constexpr std::uint32_t below_abc = threshold(0.57 + 0.19 + 0.19);
constexpr int levels_per_draw = 4;

constexpr std::uint64_t edge_stream = 1;
constexpr std::uint64_t permutation_stream = 2;

/// A seeded bijection of [0, 2^bits): rounds of multiplication by an odd constant, addition and
/// xor with the value shifted right, each invertible modulo 2^bits. It plays the role of the
/// Graph500 reference's vertex scrambling without a table of 2^bits entries.
class vertex_scramble {
 public:
  vertex_scramble(int bits, std::uint64_t seed) : bits_(bits), mask_((std::uint64_t{1} << bits) - 1) {
    const std::uint64_t key = stream_key(seed, permutation_stream);
    for (int round = 0; round < rounds; ++round) {
      multipliers_[round] = random_bits(key, 2 * round) | 1;
      addends_[round] = random_bits(key, 2 * round + 1);
    }
  }
  vertex operator()(std::uint64_t v) const {
    const int shift = bits_ / 2 + 1;  // >= bits leaves v as is, still a bijection
    for (int round = 0; round < rounds; ++round) {
      v = (v * multipliers_[round] + addends_[round]) & mask_;
      v ^= v >> shift;
    }
    return static_cast<vertex>(v);
  }

 private:
  static constexpr int rounds = 3;
  int bits_;
  std::uint64_t mask_;
  std::uint64_t multipliers_[rounds]{};
  std::uint64_t addends_[rounds]{};
};

}  // namespace

csr_graph<std::uint32_t> rmat_graph(const rmat_options& options) {
  if (options.scale < 0 || options.scale > 31) throw std::invalid_argument("rmat: scale must be 0 to 31");
  if (options.edge_factor < 0 || options.edge_factor > (std::int64_t{1} << 30))
    throw std::invalid_argument("rmat: edge factor must be 0 to 2^30");
  check_weight_range(options.weights);
  const std::int64_t num_vertices = std::int64_t{1} << options.scale;
  const std::int64_t generated = options.edge_factor * num_vertices;
  if (generated > (std::int64_t{1} << 40)) throw std::invalid_argument("rmat: more than 2^40 edges");
  const int copies = options.undirected ? 2 : 1;

  edge_list edges;
  edges.resize(static_cast<std::size_t>(generated * copies));
  const std::uint64_t key = stream_key(options.seed, edge_stream);
  // One 64-bit draw per four levels, then one for the weight.
  const std::uint64_t draws_per_edge =
      static_cast<std::uint64_t>(options.scale + levels_per_draw - 1) / levels_per_draw + 1;
  const vertex_scramble scramble(options.scale, options.seed);
  const weight_range weights = options.weights;
  const std::uint64_t vertex_mask = static_cast<std::uint64_t>(num_vertices - 1);
  apps::parallel_for(generated, std::int64_t{1} << 16, options.threads, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t e = begin; e < end; ++e) {
      const std::uint64_t counter = static_cast<std::uint64_t>(e) * draws_per_edge;
      std::uint64_t row = 0, column = 0;
      for (int first_level = 0; first_level < options.scale; first_level += levels_per_draw) {
        std::uint64_t bits = random_bits(key, counter + static_cast<std::uint64_t>(first_level / levels_per_draw));
        std::uint64_t row_nibble = 0, column_nibble = 0;  // these four levels' bits, gathered first
#pragma GCC unroll 4
        for (int k = 0; k < levels_per_draw; ++k, bits >>= 16) {
          // The quadrant 0..3 (a, b, c, d) is the number of thresholds at or below the draw:
          // its high bit picks the lower half (row), its low bit the right half (column).
          const auto draw = static_cast<std::uint32_t>(bits & 0xffffu);
          const std::uint64_t quadrant = std::uint64_t{draw >= below_a} + (draw >= below_ab) + (draw >= below_abc);
          row_nibble |= (quadrant >> 1) << k;
          column_nibble |= (quadrant & 1) << k;
        }
        row |= row_nibble << first_level;
        column |= column_nibble << first_level;
      }
      // Levels past the scale came from the last draw's spare bits: drop them.
      row &= vertex_mask;
      column &= vertex_mask;
      const auto weight_bits = static_cast<std::uint32_t>(random_bits(key, counter + draws_per_edge - 1));
      const std::uint32_t weight = uniform_in(weight_bits, weights.lo, weights.hi);
      const vertex from = scramble(row), to = scramble(column);
      const auto slot = static_cast<std::size_t>(e * copies);
      edges.sources[slot] = from;
      edges.targets[slot] = to;
      edges.weights[slot] = weight;
      if (copies == 2) {
        edges.sources[slot + 1] = to;
        edges.targets[slot + 1] = from;
        edges.weights[slot + 1] = weight;
      }
    }
  });
  return build_csr<std::uint32_t>(std::move(edges), {.num_vertices = num_vertices, .threads = options.threads});
}

}  // namespace bkt::sssp::generate
