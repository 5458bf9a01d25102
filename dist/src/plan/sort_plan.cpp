#include "bkt/dist/detail/sort_plan.hpp"

#include <algorithm>
#include <numeric>
#include <string>
#include <tuple>

#include "bkt/dist/sort_options.hpp"
#include "bkt/error.hpp"

namespace bkt::dist::detail {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return a / b + (a % b != 0 ? 1 : 0); }

/// floor(b * n / N) without overflow for every n < 2^63.
std::int64_t target_rank(std::int64_t b, std::int64_t total, std::int64_t num_ranks) {
  return static_cast<std::int64_t>(static_cast<__int128>(b) * total / num_ranks);
}

std::int64_t sample_step(std::int64_t total, std::int64_t num_ranks, std::int64_t samples_per_rank) {
  if (total <= 0) return 1;
  const auto wanted = static_cast<__int128>(num_ranks) * samples_per_rank;
  const auto step = (static_cast<__int128>(total) + wanted - 1) / wanted;
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(step));
}

}  // namespace

std::int64_t default_samples_per_rank(int num_ranks) { return 128 * (static_cast<std::int64_t>(num_ranks) + 1); }

sample_plan plan_samples(std::span<const std::int64_t> rank_items, std::int64_t samples_per_rank) {
  BKT_EXPECTS(!rank_items.empty(), "bkt::dist sort plan: no ranks");
  BKT_EXPECTS(samples_per_rank >= 1, "bkt::dist sort plan: samples_per_rank must be positive");
  const auto num_ranks = static_cast<std::int64_t>(rank_items.size());
  const std::int64_t total = std::accumulate(rank_items.begin(), rank_items.end(), std::int64_t{0});
  sample_plan plan;
  plan.step = sample_step(total, num_ranks, samples_per_rank);
  plan.counts.resize(rank_items.size());
  plan.offsets.resize(rank_items.size());
  for (std::size_t r = 0; r < rank_items.size(); ++r) {
    plan.counts[r] = rank_items[r] / plan.step;
    plan.offsets[r] = plan.total;
    plan.total += plan.counts[r];
  }
  return plan;
}

std::vector<splitter> choose_splitters(std::span<const std::uint64_t> gathered, const sample_plan& plan,
                                       std::span<const std::int64_t> rank_items, int chunks) {
  const auto num_ranks = static_cast<std::int64_t>(rank_items.size());
  BKT_EXPECTS(num_ranks >= 1 && plan.counts.size() == rank_items.size(),
              "bkt::dist sort plan: the sample plan does not match the ranks");
  BKT_EXPECTS(chunks >= 1, "bkt::dist sort plan: chunks must be positive");
  const std::int64_t pieces = num_ranks * chunks;
  BKT_EXPECTS(gathered.size() >= static_cast<std::size_t>(plan.total),
              "bkt::dist sort plan: fewer gathered samples than the plan holds");
  const std::int64_t total = std::accumulate(rank_items.begin(), rank_items.end(), std::int64_t{0});

  // The gathered sample in tuple order (image, rank, sample number; the index grows with the
  // sample number, so this is the (image, rank, index) order).
  std::vector<std::tuple<std::uint64_t, std::int32_t, std::int64_t>> samples;
  for (std::int64_t r = 0; r < num_ranks; ++r)
    for (std::int64_t j = 0; j < plan.counts[r]; ++j)
      samples.emplace_back(gathered[plan.offsets[r] + j], static_cast<std::int32_t>(r), j);
  std::sort(samples.begin(), samples.end());

  std::vector<splitter> splitters(static_cast<std::size_t>(pieces + 1));
  splitters.front() = {0, 0, -1, 0};
  splitters.back() = {~std::uint64_t{0}, 0, static_cast<std::int32_t>(num_ranks), 0};
  const auto sampled = static_cast<std::int64_t>(samples.size());
  // The sample at sorted position p has between p step and p step + N (step - 1) keys before it:
  // estimate the middle and take the nearest to each target.
  const std::int64_t half_spread = num_ranks * (plan.step - 1) / 2;
  // floor(j n / (N C)) for j = b C is floor(b n / N): the rank boundaries do not depend on C.
  for (std::int64_t b = 1; b < pieces; ++b) {
    if (sampled == 0) {  // no keys at all: every splitter precedes everything
      splitters[b] = splitters.front();
      continue;
    }
    const std::int64_t above = std::max<std::int64_t>(0, target_rank(b, total, pieces) - half_spread);
    const std::int64_t p = std::min(sampled - 1, (above + plan.step / 2) / plan.step);
    const auto& [image, rank, j] = samples[static_cast<std::size_t>(p)];
    splitters[b] = {image, (j + 1) * plan.step - 1, rank, 0};
  }
  return splitters;
}

std::int64_t max_received(std::int64_t total_items, int num_ranks, std::int64_t samples_per_rank) {
  BKT_EXPECTS(num_ranks >= 1 && total_items >= 0 && samples_per_rank >= 1,
              "bkt::dist sort plan: bad arguments to max_received");
  if (num_ranks == 1) return total_items;
  const std::int64_t step = sample_step(total_items, num_ranks, samples_per_rank);
  const std::int64_t bound = ceil_div(total_items, num_ranks) + 2 * (num_ranks + 1) * step;
  return std::min(total_items, bound);
}

int choose_chunks(int requested, std::int64_t total_items, int num_ranks, std::int64_t element_bytes) {
  // Automatic is one piece: on 2 x H100 (NVLink) eight pieces of a 2^31-key sort measured slower
  // than one (docs/dist.md), the NCCL kernels and the merges competing for the SMs.
  (void)total_items, (void)num_ranks, (void)element_bytes;
  return requested > 0 ? requested : 1;
}

std::int64_t exchange_alignment(std::int64_t key_bytes, std::int64_t word_bytes) {
  const std::int64_t narrowest = word_bytes > 0 ? std::min(key_bytes, word_bytes) : key_bytes;
  return std::max<std::int64_t>(1, 16 / narrowest);
}

std::int64_t receive_extent_bound(std::int64_t capacity, int num_ranks, int chunks, std::int64_t align) {
  return capacity + 2 * static_cast<std::int64_t>(num_ranks) * chunks * align;
}

exchange_plan plan_exchange(std::span<const std::int64_t> bounds, std::span<const std::int64_t> rank_items, int rank,
                            int chunks, std::int64_t align) {
  const auto num_ranks = static_cast<std::int64_t>(rank_items.size());
  BKT_EXPECTS(chunks >= 1 && align >= 1, "bkt::dist sort plan: chunks and align must be positive");
  const std::int64_t pieces = num_ranks * chunks;
  const std::int64_t row = pieces + 1;
  BKT_EXPECTS(rank >= 0 && rank < num_ranks, "bkt::dist sort plan: rank outside the communicator");
  BKT_EXPECTS(bounds.size() == static_cast<std::size_t>(num_ranks * row),
              "bkt::dist sort plan: the splitter counts are not N x (N C + 1)");
  for (std::int64_t r = 0; r < num_ranks; ++r) {
    const auto* counts = bounds.data() + r * row;
    bool consistent = counts[0] == 0 && counts[pieces] == rank_items[r];
    for (std::int64_t b = 0; b < pieces; ++b) consistent = consistent && counts[b] <= counts[b + 1];
    if (!consistent)
      throw error("bkt::dist sort: the splitter counts of rank " + std::to_string(r) +
                      " are inconsistent (an internal error)",
                  cudaSuccess, __FILE__, __LINE__);
  }
  const auto down = [align](std::int64_t x) { return x / align * align; };
  const auto up = [align](std::int64_t x) { return (x + align - 1) / align * align; };
  exchange_plan plan;
  plan.chunks = chunks;
  plan.align = align;
  const auto n = static_cast<std::size_t>(pieces);
  for (auto* v : {&plan.send_offsets, &plan.send_counts, &plan.send_window_first, &plan.send_window_count,
                  &plan.recv_offsets, &plan.recv_counts, &plan.recv_window_offsets, &plan.recv_window_count})
    v->assign(n, 0);
  const auto* mine = bounds.data() + rank * row;
  for (std::int64_t q = 0; q < num_ranks; ++q) {
    const auto* theirs = bounds.data() + q * row;
    plan.global_first += theirs[rank * chunks];
    plan.sources += theirs[(rank + 1) * chunks] > theirs[rank * chunks] ? 1 : 0;
    for (std::int64_t c = 0; c < chunks; ++c) {
      const std::int64_t at = q * chunks + c;
      plan.send_offsets[at] = mine[at];
      plan.send_counts[at] = mine[at + 1] - mine[at];
      if (plan.send_counts[at] > 0 && q != rank) {
        plan.send_window_first[at] = down(mine[at]);
        plan.send_window_count[at] = up(mine[at + 1]) - down(mine[at]);
      }
    }
  }
  // The receive layout, chunk by chunk, peers in rank order; every window starts on a multiple of
  // align, and the sender computes the same window from the same bounds.
  plan.region_first.assign(static_cast<std::size_t>(chunks + 1), 0);
  plan.chunk_first.assign(static_cast<std::size_t>(chunks + 1), 0);
  for (std::int64_t c = 0; c < chunks; ++c) {
    plan.region_first[c] = plan.receive_extent;
    plan.chunk_first[c] = plan.received;
    for (std::int64_t p = 0; p < num_ranks; ++p) {
      const auto* theirs = bounds.data() + p * row;
      const std::int64_t first = theirs[rank * chunks + c], last = theirs[rank * chunks + c + 1];
      const std::int64_t at = p * chunks + c;
      plan.recv_counts[at] = last - first;
      plan.received += last - first;
      if (last == first) {
        plan.recv_offsets[at] = plan.recv_window_offsets[at] = plan.receive_extent;
        continue;
      }
      const std::int64_t lead = p == rank ? 0 : first - down(first);
      const std::int64_t window = p == rank ? up(last - first) : up(last) - down(first);
      plan.recv_window_offsets[at] = plan.receive_extent;
      plan.recv_window_count[at] = p == rank ? 0 : window;
      plan.recv_offsets[at] = plan.receive_extent + lead;
      plan.receive_extent += window;
    }
  }
  plan.region_first[chunks] = plan.receive_extent;
  plan.chunk_first[chunks] = plan.received;
  return plan;
}

}  // namespace bkt::dist::detail

namespace bkt::dist {

std::int64_t sort_capacity(std::int64_t global_items, int num_ranks, const sort_options& options) {
  const std::int64_t samples =
      options.samples_per_rank > 0 ? options.samples_per_rank : detail::default_samples_per_rank(num_ranks);
  return detail::max_received(global_items, num_ranks, samples);
}

}  // namespace bkt::dist
