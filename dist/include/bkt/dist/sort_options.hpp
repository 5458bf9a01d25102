// Options and results of the distributed sort (bkt/dist/sort.hpp); plain C++, shared with the CPU
// simulation (bkt/dist/ref/sort.hpp).
#pragma once

#include <array>
#include <cstdint>

#include "bkt/radix_sort.hpp"

namespace bkt::dist {

/// How each rank merges the sorted runs it receives (their concatenation, in rank order).
/// merge: adjacent runs merged pairwise (cub::DeviceMerge), ceil(log2 runs) passes; radix_sort: a
/// stable radix sort of the concatenation; automatic: merge when it makes no more passes over the
/// data than the radix sort of the key would. Every choice gives the same result.
enum class sort_merge { automatic, merge, radix_sort };

struct sort_options {
  sort_order order = sort_order::ascending;
  /// Samples each rank offers on average; more make the ranks' shares more even. 0 chooses
  /// 128 (N + 1), which keeps every share within about 1.6 % of n / N. The same on every rank.
  std::int64_t samples_per_rank = 0;
  sort_merge merge = sort_merge::automatic;
  /// Pieces each rank's exchange is cut into, in [0, 64]; while piece c + 1 crosses the wire the
  /// receiver merges piece c (the pieces are cut by extra splitters, so merged piece c is the c-th
  /// part of the output). 0 chooses one piece: more measured slower on 2 x H100 (docs/dist.md).
  /// The same on every rank.
  int chunks = 0;
  /// true: the call waits for `stream` at its end and fills sort_result::phase_ms (benchmarks).
  bool profile = false;
};

/// Phases of sort_result::phase_ms.
enum sort_phase { local_sort_phase = 0, splitters_phase = 1, exchange_phase = 2, merge_phase = 3 };

struct sort_result {
  std::int64_t count = 0;         ///< elements this rank holds now: outputs [0, count)
  std::int64_t global_first = 0;  ///< global rank (place in the sorted whole) of its first element
  std::int64_t global_total = 0;  ///< elements over all ranks
  /// With sort_options::profile: milliseconds of the local sort, sampling and splitters (with
  /// their gathers), exchange (until its last piece has landed; the merges of earlier pieces run
  /// meanwhile), and the merge left after it, by CUDA events.
  std::array<double, 4> phase_ms{};
};

/// The output capacity every rank must pass (keys_out, values_out) for a sort of `global_items`
/// elements over `num_ranks` ranks: ceil(n / N) + 2 (N + 1) step, step = ceil(n / (N s)) for s
/// samples per rank (bkt/dist/detail/sort_plan.hpp proves the bound), at most n.
std::int64_t sort_capacity(std::int64_t global_items, int num_ranks, const sort_options& options = {});

}  // namespace bkt::dist
