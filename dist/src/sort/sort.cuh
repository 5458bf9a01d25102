// The distributed sample sort (bkt/dist/sort.hpp): local radix sort, regular sample, splitters,
// counts, the exchange in chunks on the communicator's side stream, and the stable merge of each
// chunk's runs on the caller's stream while later chunks travel (merge.cuh, or a radix sort). The
// host-side plan is bkt/dist/detail/sort_plan.hpp; this file moves the data.
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <exception>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "../comm/access.hpp"
#include "../comm/collectives.hpp"
#include "bkt/detail/arguments.hpp"
#include "bkt/detail/workspace_layout.hpp"
#include "bkt/dist/detail/sort_plan.hpp"
#include "bkt/dist/sort.hpp"
#include "bkt/radix_sort.hpp"
#include "kernels.cuh"
#include "merge.cuh"

namespace bkt::dist::detail {

using bkt::detail::slice_at;
using bkt::detail::workspace_layout;

/// What travels with the keys: nothing, the caller's values, or global positions (sort_indices).
enum class payload { none, values, positions };

/// CUDA events at the phase boundaries when the caller profiles; nothing otherwise.
class phase_clock {
 public:
  phase_clock(bool enabled, cudaStream_t stream) : enabled_(enabled), stream_(stream) {
    if (!enabled_) return;
    for (auto& e : events_) BKT_CUDA_CHECK(cudaEventCreate(&e));
    mark(0);
  }
  ~phase_clock() {
    if (enabled_)
      for (auto& e : events_) (void)cudaEventDestroy(e);
  }
  phase_clock(const phase_clock&) = delete;
  phase_clock& operator=(const phase_clock&) = delete;
  void mark(int boundary) { mark(boundary, stream_); }
  /// The boundary as seen by `on` (the exchange ends on the side stream).
  void mark(int boundary, cudaStream_t on) {
    if (enabled_) BKT_CUDA_CHECK(cudaEventRecord(events_[boundary], on));
  }
  /// Waits for the stream and fills the phase times (all zero when not enabled).
  void read(std::array<double, 4>& phase_ms) {
    if (!enabled_) return;
    for (auto& e : events_) BKT_CUDA_CHECK(cudaEventSynchronize(e));  // boundary 3 is on another stream
    for (int p = 0; p < 4; ++p) {
      float ms = 0;
      BKT_CUDA_CHECK(cudaEventElapsedTime(&ms, events_[p], events_[p + 1]));
      phase_ms[p] = ms;
    }
  }

 private:
  bool enabled_;
  cudaStream_t stream_;
  std::array<cudaEvent_t, 5> events_{};
};

/// Events that order the side stream's exchange with the caller's stream, destroyed with the
/// object (a pending event may be destroyed: CUDA releases it once it completes).
class event_list {
 public:
  explicit event_list(std::size_t count) : events_(count, nullptr) {
    for (auto& e : events_) BKT_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  }
  ~event_list() {
    for (auto& e : events_)
      if (e != nullptr) (void)cudaEventDestroy(e);
  }
  event_list(const event_list&) = delete;
  event_list& operator=(const event_list&) = delete;
  cudaEvent_t operator[](std::size_t i) const { return events_[i]; }

 private:
  std::vector<cudaEvent_t> events_;
};

/// The index type radix_sort_indices takes for words of this size.
template <class Word>
using index_of_word = std::conditional_t<sizeof(Word) == 4, std::uint32_t, std::int64_t>;

template <class Key, class Word>
sort_result run_sort(const communicator& comm, std::span<const Key> keys_in, std::span<const Word> values_in,
                     std::span<Key> keys_out, std::span<Word> values_out, payload mode, workspace& ws,
                     cudaStream_t stream, const sort_options& options, const char* call) {
  const device_scope scope(comm.device());
  const int num_ranks = comm.size();
  const int me = comm.rank();
  const bool carry = mode != payload::none;
  const bool descending = options.order == sort_order::descending;
  const auto n_local = static_cast<std::int64_t>(keys_in.size());
  // The output capacity: keys_out, or the index output of an argsort that skips the keys.
  const bool keys_wanted = mode != payload::positions || !keys_out.empty();
  const auto capacity = static_cast<std::int64_t>(keys_wanted ? keys_out.size() : values_out.size());
  const std::int64_t samples =
      options.samples_per_rank > 0 ? options.samples_per_rank : default_samples_per_rank(num_ranks);
  radix_sort_options local_options;
  local_options.order = options.order;

  // Local checks and every allocation come first: a failure here becomes this rank's status, and
  // the gathered records make every rank throw together instead of waiting in a collective.
  call_record mine;
  mine.items = n_local;
  mine.own = capacity;
  mine.agreed = {static_cast<std::int64_t>(sizeof(Key)), carry ? static_cast<std::int64_t>(sizeof(Word)) : 0,
                 static_cast<std::int64_t>(mode), static_cast<std::int64_t>(options.order), samples, options.chunks};
  static constexpr std::array<const char*, 6> names = {"the key size", "the value size", "the call",
                                                       "the sort order", "samples_per_rank", "chunks"};
  std::exception_ptr local_error;
  workspace_layout layout;
  const std::size_t word_bytes = carry ? sizeof(Word) : 0;
  // One rank sorts straight into the outputs: it needs none of these buffers.
  const auto items = [&](std::int64_t count) { return num_ranks > 1 ? static_cast<std::size_t>(count) : 0; };
  // Exchange windows round a chunk out to `align` keys, so the sorted runs carry that much padding
  // (read, never used) and the receive buffer room for every window (sort_plan.hpp).
  const std::int64_t align = exchange_alignment(sizeof(Key), static_cast<std::int64_t>(word_bytes));
  const bool chunks_valid = options.chunks >= 0 && options.chunks <= 64;
  const int most_chunks = options.chunks > 0 && chunks_valid ? options.chunks : 1;
  const std::int64_t receive_room = receive_extent_bound(capacity, num_ranks, most_chunks, align);
  const std::size_t at_sorted_keys = layout.add(items(n_local + align) * sizeof(Key));
  const std::size_t at_sorted_words = layout.add(items(n_local + align) * word_bytes);
  const std::size_t at_recv_keys = layout.add(items(receive_room) * sizeof(Key));
  const std::size_t at_recv_words = layout.add(items(receive_room) * word_bytes);
  const std::size_t at_out_keys = layout.add(keys_wanted ? 0 : items(capacity) * sizeof(Key));
  // At most N samples_per_rank samples in all (sort_plan.hpp), N C + 1 splitters, N x (N C + 1) counts.
  const std::int64_t most_splitters = num_ranks * static_cast<std::int64_t>(most_chunks) + 1;
  const std::size_t at_samples = layout.add(items(num_ranks * samples) * sizeof(std::uint64_t));
  const std::size_t at_splitters = layout.add(items(most_splitters) * sizeof(splitter));
  const std::size_t at_bounds = layout.add(items(num_ranks) * static_cast<std::size_t>(most_splitters) * sizeof(std::int64_t));
  void* base = nullptr;
  try {
    bkt::detail::expect_data(call, "keys_in", keys_in);
    bkt::detail::expect_data(call, "keys_out", keys_out);
    bkt::detail::expect_data(call, "values_out", values_out);
    if (mode == payload::values) {
      bkt::detail::expect_data(call, "values_in", values_in);
      bkt::detail::expect_same_size(call, "keys_in", keys_in.size(), "values_in", values_in.size());
    }
    if (carry && values_out.size() < static_cast<std::size_t>(capacity))
      bkt::detail::throw_argument(std::string(call) + ": the value (or index) output holds fewer elements than the key output");
    if (samples < 1 || samples > (std::int64_t{1} << 20))
      bkt::detail::throw_argument(std::string(call) + ": samples_per_rank must lie in [0, 2^20]");
    if (!chunks_valid) bkt::detail::throw_argument(std::string(call) + ": chunks must lie in [0, 64]");
    bkt::detail::expect_disjoint(call, "keys_in", keys_in, "keys_out", keys_out);
    base = ws.own().reserve(layout.total_bytes(), stream);
    const std::int64_t most = std::max(n_local, capacity);
    std::size_t primitive_bytes = radix_sort_workspace_bytes(most, sizeof(Key), word_bytes, local_options);
    if (!keys_wanted)  // one rank's argsort without keys sorts in the indices-only form
      primitive_bytes = std::max(primitive_bytes, radix_sort_workspace_bytes(n_local, sizeof(Key), word_bytes, local_options,
                                                                             radix_sort_form::indices_only));
    if (num_ranks > 1) primitive_bytes = std::max(primitive_bytes, merge_temp_bytes<Key, Word>(capacity, carry));
    (void)ws.primitives().reserve(primitive_bytes, stream);
  } catch (const std::exception& e) {
    mine.status = classify(e);
    local_error = std::current_exception();
  }
  const agreement agreed = agree_sync(comm, call, mine, names, local_error, stream);

  // Checks whose inputs every rank holds, so that every rank throws alike.
  const std::int64_t needed = max_received(agreed.total, num_ranks, samples);
  for (int r = 0; r < num_ranks; ++r)
    if (agreed.records[r].own < needed)
      throw_everywhere(call, "rank " + std::to_string(r) + "'s output holds " + std::to_string(agreed.records[r].own) +
                                 " elements, fewer than sort_capacity(" + std::to_string(agreed.total) + ", " +
                                 std::to_string(num_ranks) + ") = " + std::to_string(needed));
  if (mode == payload::positions && agreed.total > 0 &&
      static_cast<std::uint64_t>(agreed.total - 1) > static_cast<std::uint64_t>(std::numeric_limits<index_of_word<Word>>::max()))
    throw_everywhere(call, "global positions up to " + std::to_string(agreed.total - 1) + " do not fit the index type");

  sort_result result;
  result.global_total = agreed.total;
  phase_clock clock(options.profile, stream);
  using index_type = index_of_word<Word>;
  const auto as_index = [](std::span<Word> words) {
    return std::span<index_type>(reinterpret_cast<index_type*>(words.data()), words.size());
  };
  // One rank: the local sort is the whole sort.
  if (num_ranks == 1) {
    if (mode == payload::none)
      radix_sort_keys<Key>(keys_in, keys_out.first(n_local), ws.primitives(), stream, local_options);
    else if (mode == payload::values)
      bkt::detail::radix_sort_pairs<Key, Word>(keys_in, values_in, keys_out.first(n_local), values_out.first(n_local),
                                               ws.primitives(), stream, local_options);
    else
      radix_sort_indices<Key, index_type>(keys_in, keys_wanted ? keys_out.first(n_local) : std::span<Key>{},
                                          as_index(values_out.first(n_local)), ws.primitives(), stream, local_options);
    for (int boundary = 1; boundary <= 4; ++boundary) clock.mark(boundary);
    result.count = n_local;
    clock.read(result.phase_ms);
    return result;
  }

  // 1. The local stable sort.
  const std::span<Key> sorted_keys(slice_at<Key>(base, at_sorted_keys), static_cast<std::size_t>(n_local));
  const std::span<Word> sorted_words(slice_at<Word>(base, at_sorted_words), carry ? static_cast<std::size_t>(n_local) : 0);
  if (mode == payload::none) {
    radix_sort_keys<Key>(keys_in, sorted_keys, ws.primitives(), stream, local_options);
  } else if (mode == payload::values) {
    bkt::detail::radix_sort_pairs<Key, Word>(keys_in, values_in, sorted_keys, sorted_words, ws.primitives(), stream,
                                             local_options);
  } else {
    radix_sort_indices<Key, index_type>(keys_in, sorted_keys, as_index(sorted_words), ws.primitives(), stream,
                                        local_options);
    add_offset(sorted_words.data(), n_local, agreed.starts[me], stream);
  }
  clock.mark(1);

  // 2. The regular sample of every run, gathered, and the splitters (the host picks them).
  const sample_plan sampling = plan_samples(agreed.items, samples);
  auto* gathered = slice_at<std::uint64_t>(base, at_samples);
  extract_samples(sorted_keys.data(), sampling.step, sampling.counts[me], descending, gathered + sampling.offsets[me],
                  stream);
  std::vector<std::int64_t> sample_bytes(sampling.counts), sample_offsets(sampling.offsets);
  for (int r = 0; r < num_ranks; ++r) {
    sample_bytes[r] *= sizeof(std::uint64_t);
    sample_offsets[r] *= sizeof(std::uint64_t);
  }
  all_gather_v(comm, gathered + sampling.offsets[me], gathered, sample_bytes, sample_offsets, stream);
  std::vector<std::uint64_t> host_samples(static_cast<std::size_t>(sampling.total));
  if (sampling.total > 0)
    BKT_CUDA_CHECK(cudaMemcpyAsync(host_samples.data(), gathered, host_samples.size() * sizeof(std::uint64_t),
                                   cudaMemcpyDeviceToHost, stream));
  BKT_CUDA_CHECK(cudaStreamSynchronize(stream));
  const int chunks = choose_chunks(options.chunks, agreed.total, num_ranks,
                                   static_cast<std::int64_t>(sizeof(Key) + word_bytes));
  const std::vector<splitter> splitters = choose_splitters(host_samples, sampling, agreed.items, chunks);
  auto* device_splitters = slice_at<splitter>(base, at_splitters);
  BKT_CUDA_CHECK(cudaMemcpyAsync(device_splitters, splitters.data(), splitters.size() * sizeof(splitter),
                                 cudaMemcpyHostToDevice, stream));

  // 3. Each rank's keys before every splitter, gathered: the exchange plan of every rank.
  const int row = num_ranks * chunks + 1;
  auto* bounds = slice_at<std::int64_t>(base, at_bounds);
  count_before_splitters(sorted_keys.data(), n_local, device_splitters, row, me, descending, bounds + me * row, stream);
  all_gather(comm, bounds + me * row, bounds, row * sizeof(std::int64_t), stream);
  std::vector<std::int64_t> host_bounds(static_cast<std::size_t>(num_ranks * row));
  BKT_CUDA_CHECK(cudaMemcpyAsync(host_bounds.data(), bounds, host_bounds.size() * sizeof(std::int64_t),
                                 cudaMemcpyDeviceToHost, stream));
  BKT_CUDA_CHECK(cudaStreamSynchronize(stream));
  const exchange_plan plan = plan_exchange(host_bounds, agreed.items, me, chunks, align);
  for (int r = 0; r < num_ranks; ++r) {  // the bound holds by construction; checked alike on every rank
    std::int64_t received = 0;
    for (int p = 0; p < num_ranks; ++p)
      received += host_bounds[p * row + (r + 1) * chunks] - host_bounds[p * row + r * chunks];
    if (received > agreed.records[r].own)
      throw_everywhere(call, "rank " + std::to_string(r) + " would receive " + std::to_string(received) +
                                 " elements, more than its output holds (an internal error)");
  }
  clock.mark(2);

  // 4 and 5. The exchange on the side stream, chunk by chunk, and on `stream` the stable merge of
  // each chunk's runs as soon as it has landed: chunk c of every source, merged, is the output
  // [chunk_first[c], chunk_first[c + 1]). The runs of a chunk are merged in source order (pairwise
  // merges keep ties in that order), or sorted by a stable radix sort of their concatenation;
  // either way equal keys end in source rank order, then in their place in the source's run: the
  // global input order. A rank's own chunk is read in place from its sorted run.
  if (plan.receive_extent > receive_room)
    throw error(std::string(call) + ": the receive layout outgrows its buffer (an internal error)", cudaSuccess,
                __FILE__, __LINE__);
  Key* const recv_keys = slice_at<Key>(base, at_recv_keys);
  Word* const recv_words = carry ? slice_at<Word>(base, at_recv_words) : nullptr;
  std::vector<exchange_array> arrays = {{sorted_keys.data(), recv_keys, sizeof(Key)}};
  if (carry) arrays.push_back({sorted_words.data(), recv_words, sizeof(Word)});
  const cudaStream_t side = communicator_access::side_stream(comm);
  const event_list landed(static_cast<std::size_t>(chunks) + 1);
  // The side stream starts after everything before on `stream` (the sorted runs, the plan).
  BKT_CUDA_CHECK(cudaEventRecord(landed[0], stream));
  BKT_CUDA_CHECK(cudaStreamWaitEvent(side, landed[0], 0));
  for (int c = 0; c < chunks; ++c) {
    exchange_chunk(comm, plan, c, arrays, side);
    BKT_CUDA_CHECK(cudaEventRecord(landed[c + 1], side));
  }
  clock.mark(3, side);

  const std::int64_t m = plan.received;
  Key* const out_keys = keys_wanted ? keys_out.data() : slice_at<Key>(base, at_out_keys);
  Word* const out_words = carry ? values_out.data() : nullptr;
  const bool use_merge = options.merge == sort_merge::merge ||
                         (options.merge == sort_merge::automatic &&
                          merge_passes(plan.sources) <= radix_sort_passes(sizeof(Key), local_options));
  const std::size_t temp_bytes = use_merge ? merge_temp_bytes<Key, Word>(m, carry) : 0;
  void* const temp = use_merge ? ws.primitives().reserve(temp_bytes, stream) : nullptr;
  for (int c = 0; c < chunks; ++c) {
    // `stream` waits for chunk c; it also waits for the last one below, so that nothing of this
    // call is left on the side stream when it returns (the buffers are reused by the next call).
    BKT_CUDA_CHECK(cudaStreamWaitEvent(stream, landed[c + 1], 0));
    std::vector<run_view<Key, Word>> runs;
    for (int p = 0; p < num_ranks; ++p) {
      const std::size_t at = static_cast<std::size_t>(p) * chunks + c;
      if (plan.recv_counts[at] == 0) continue;
      const std::int64_t first = p == me ? plan.send_offsets[at] : plan.recv_offsets[at];
      const Key* keys = p == me ? sorted_keys.data() + first : recv_keys + first;
      const Word* words = !carry ? nullptr : p == me ? sorted_words.data() + first : recv_words + first;
      runs.push_back({keys, words, plan.recv_counts[at]});
    }
    const std::int64_t out_first = plan.chunk_first[c];
    const std::int64_t total = plan.chunk_first[c + 1] - out_first;
    Key* const chunk_keys = out_keys + out_first;
    Word* const chunk_words = carry ? out_words + out_first : nullptr;
    // Region c of the receive buffer holds at least the chunk's total: scratch once read.
    Key* const scratch_keys = recv_keys + plan.region_first[c];
    Word* const scratch_words = carry ? recv_words + plan.region_first[c] : nullptr;
    if (use_merge || runs.size() <= 1) {
      merge_runs<Key, Word>(std::move(runs), chunk_keys, chunk_words, scratch_keys, scratch_words, carry, descending,
                            temp, temp_bytes, stream);
      continue;
    }
    // The radix sort takes one array: the runs side by side in the output, sorted into the
    // scratch region, and back.
    std::int64_t at = 0;
    for (const auto& run : runs) {
      BKT_CUDA_CHECK(cudaMemcpyAsync(chunk_keys + at, run.keys, static_cast<std::size_t>(run.count) * sizeof(Key),
                                     cudaMemcpyDeviceToDevice, stream));
      if (carry)
        BKT_CUDA_CHECK(cudaMemcpyAsync(chunk_words + at, run.words, static_cast<std::size_t>(run.count) * sizeof(Word),
                                       cudaMemcpyDeviceToDevice, stream));
      at += run.count;
    }
    const auto count = static_cast<std::size_t>(total);
    if (!carry)
      radix_sort_keys<Key>(std::span<const Key>(chunk_keys, count), std::span<Key>(scratch_keys, count), ws.primitives(),
                           stream, local_options);
    else
      bkt::detail::radix_sort_pairs<Key, Word>(std::span<const Key>(chunk_keys, count),
                                               std::span<const Word>(chunk_words, count),
                                               std::span<Key>(scratch_keys, count), std::span<Word>(scratch_words, count),
                                               ws.primitives(), stream, local_options);
    BKT_CUDA_CHECK(cudaMemcpyAsync(chunk_keys, scratch_keys, count * sizeof(Key), cudaMemcpyDeviceToDevice, stream));
    if (carry)
      BKT_CUDA_CHECK(cudaMemcpyAsync(chunk_words, scratch_words, count * sizeof(Word), cudaMemcpyDeviceToDevice, stream));
  }
  BKT_CUDA_CHECK(cudaStreamWaitEvent(stream, landed[chunks], 0));
  clock.mark(4);
  result.count = m;
  result.global_first = plan.global_first;
  clock.read(result.phase_ms);
  return result;
}

}  // namespace bkt::dist::detail
