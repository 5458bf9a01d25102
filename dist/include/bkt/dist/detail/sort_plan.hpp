// The host-side plan of the distributed sample sort, shared by the GPU code (dist/src/sort/) and
// the CPU simulation (bkt/dist/ref/sort.hpp). Plain C++: no NCCL, MPI or GPU.
//
//  1. Every rank sorts its keys; a rank of n_r keys then offers floor(n_r / step) samples, the keys
//     at sorted indices step - 1, 2 step - 1, ... (plan_samples). One step for all ranks makes each
//     sample stand for `step` keys, so ranks of very different sizes weigh what they hold.
//  2. The gathered samples, ordered as tuples (image, rank, index), yield the splitters
//     (choose_splitters): splitter b is the sample whose estimated global rank is nearest b n / N.
//  3. Each rank counts its keys before every splitter (bkt/dist/detail/splitter.hpp); the gathered
//     N x (N C + 1) counts say who sends what to whom, in C chunks (plan_exchange): the splitters
//     between two rank boundaries cut every rank's run to that destination at the same keys, so
//     chunk c of all sources, merged, is the c-th piece of the destination's output and can be
//     merged while chunk c + 1 is still on the wire.
// A sample at sorted position p of the gathered sample has between p step and p step + N (step - 1)
// keys before it, so every splitter lands within (N + 1) step of its target and no rank receives
// more than ceil(n / N) + 2 (N + 1) step keys (max_received).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "bkt/dist/detail/splitter.hpp"

namespace bkt::dist::detail {

/// Samples per rank when the caller does not choose: 128 (N + 1), so that the bound above stays
/// within about 1.6 % of n / N for every N.
std::int64_t default_samples_per_rank(int num_ranks);

struct sample_plan {
  std::int64_t step = 1;              ///< keys each sample stands for
  std::vector<std::int64_t> counts;   ///< samples of each rank
  std::vector<std::int64_t> offsets;  ///< where each rank's samples start in the gathered sample
  std::int64_t total = 0;             ///< samples of all ranks: at most N samples_per_rank
};

/// The sampling for ranks holding rank_items[r] keys, about samples_per_rank samples per rank on
/// average. Sample j of a rank is its sorted key at index (j + 1) * step - 1.
sample_plan plan_samples(std::span<const std::int64_t> rank_items, std::int64_t samples_per_rank);

/// The N C + 1 splitters (N = rank_items.size(), C = chunks): splitter 0 precedes every key,
/// splitter N C follows every key, and splitter j in between is the sample nearest the global rank
/// j n / (N C), gathered[offsets[r] + j] being the image of rank r's sample j. Rank q receives the
/// keys between splitters q C and (q + 1) C, as C chunks cut by the splitters in between; the rank
/// boundaries (j = q C) are the same whatever C.
std::vector<splitter> choose_splitters(std::span<const std::uint64_t> gathered, const sample_plan& plan,
                                       std::span<const std::int64_t> rank_items, int chunks = 1);

/// The chunk count of a sort: `requested` when positive, else one (more pieces measured slower,
/// docs/dist.md).
int choose_chunks(int requested, std::int64_t total_items, int num_ranks, std::int64_t element_bytes);

/// Elements per 16-byte block of the narrowest array the exchange moves: every NCCL buffer of the
/// exchange starts and ends on such a boundary, so that NCCL copies in 16-byte packs.
std::int64_t exchange_alignment(std::int64_t key_bytes, std::int64_t word_bytes);

/// The most keys any rank can receive from a sort of total_items keys over num_ranks ranks.
std::int64_t max_received(std::int64_t total_items, int num_ranks, std::int64_t samples_per_rank);

/// What one rank sends and receives, in keys, chunk by chunk; index [q * chunks + c] is chunk c of
/// the run between this rank and peer q. Chunk c of this rank's run to q is its sorted keys
/// [send_offsets, + send_counts); NCCL moves the window [send_window_first, + send_window_count)
/// around it, widened to multiples of `align` keys, which lands at recv_window_offsets in the
/// receiver's buffer, the chunk itself at recv_offsets (window + the same lead). The receive buffer
/// is laid out chunk by chunk, peers in rank order within a chunk (region c starts at
/// region_first[c]); a rank's own chunk moves nowhere (it is read in place) but keeps a window
/// there, so region c can hold chunk c's merge whole. Chunk c of every peer, merged, is the output
/// [chunk_first[c], chunk_first[c + 1]).
struct exchange_plan {
  int chunks = 1;
  std::int64_t align = 1;
  std::vector<std::int64_t> send_offsets, send_counts, send_window_first, send_window_count;
  std::vector<std::int64_t> recv_offsets, recv_counts, recv_window_offsets, recv_window_count;
  std::vector<std::int64_t> region_first;  ///< chunks + 1 entries
  std::vector<std::int64_t> chunk_first;   ///< chunks + 1 entries; the last is `received`
  std::int64_t receive_extent = 0;  ///< keys of the receive buffer the layout spans
  std::int64_t received = 0;        ///< keys this rank ends with
  std::int64_t global_first = 0;    ///< global rank of its first key
  int sources = 0;                  ///< peers (itself included) it receives a non-empty run from
};

/// Bound on receive_extent for `capacity` received keys: capacity + 2 N C align.
std::int64_t receive_extent_bound(std::int64_t capacity, int num_ranks, int chunks, std::int64_t align);

/// The plan of `rank` from bounds[r * (N C + 1) + j] = keys of rank r before splitter j. Throws
/// bkt::error when the bounds are inconsistent (they must start at 0, end at rank_items[r] and
/// never decrease), the same on every rank since every rank holds the same bounds.
exchange_plan plan_exchange(std::span<const std::int64_t> bounds, std::span<const std::int64_t> rank_items, int rank,
                            int chunks = 1, std::int64_t align = 1);

}  // namespace bkt::dist::detail
