// bkt::dist across the GPUs of one mpirun against bkt on one GPU, and NCCL's own bandwidth at the
// message sizes the algorithms use, in one run: `mpirun -np N dist_bench [--log2-sort-total 31 ...]`.
//
// Rows (rank 0 prints the table and writes JSON; every rank times, the slowest rank counts):
//  - nccl all-to-all (grouped ncclSend/ncclRecv, as the sort's exchange) with the sort's per-peer
//    message, and all-reduce of 256 int64 (a histogram) and of 64 MiB; bus bandwidth as nccl-tests
//    defines it: all-to-all busbw = algbw (N - 1) / N, all-reduce busbw = algbw 2 (N - 1) / N.
//  - sort of 2^S u32 keys in all (even parts) against bkt::radix_sort_keys of the same 2^S keys on
//    one GPU, with the phases (local sort, sample and splitters, exchange, merge) and the exchange's
//    off-rank bytes per second as a fraction of the all-to-all busbw.
//  - weak scaling: 2^W u32 keys and 2^W u32/u32 pairs per GPU against one GPU sorting 2^W.
//  - top_k (k = 1024) and histogram_even (256 bins) over 2^T f32 in all against one GPU.
// Bytes that must move: the sort's exchange sends (N - 1) / N of each rank's keys off the rank;
// the one-GPU sort is the peer, so the ratio column is one GPU's time over N GPUs' time.
// Checks: sorted order within and across ranks, the multiset of keys unchanged, each rank's slice
// equal (by a position-weighted hash) to the one-GPU result, top_k and histograms equal to it.
#include <CLI/CLI.hpp>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bkt/detail/radix_bits.hpp"
#include "bkt/dist/error.hpp"
#include "bkt/dist/histogram.hpp"
#include "bkt/dist/select.hpp"
#include "bkt/dist/sort.hpp"
#include "bkt/gpu.hpp"
#include "bkt/histogram.hpp"
#include "bkt/memory.hpp"
#include "bkt/radix_sort.hpp"
#include "bkt/select.hpp"
#include "bkt/stream.hpp"
#include "harness.hpp"
#include "inputs.cuh"

namespace {

struct options {
  int repeats = 10;
  int log2_sort_total = 31;
  int log2_weak = 30;
  int log2_select_total = 31;
  std::int64_t top_k = 1024;
  int bins = 256;
  int chunks = 0;
  bool skip_single = false;
  std::string json_path;
};

struct context {
  const options& opts;
  bkt::dist::communicator& comm;
  cudaStream_t stream;
  nlohmann::json rows = nlohmann::json::array();
  double nccl_busbw = 0;  ///< the all-to-all row's, at the strong-scaling sort's per-rank volume
  int rank() const { return comm.rank(); }
  int size() const { return comm.size(); }
};

/// Runs `work` on every rank after a barrier, `repeats` times after 2 warm runs; each run's time is
/// the slowest rank's (CUDA events, reduced with MPI). Returns median, min and max.
bkt::bench::timing time_everywhere(context& c, const std::function<void(cudaStream_t)>& work) {
  cudaEvent_t start, stop;
  BKT_CUDA_CHECK(cudaEventCreate(&start));
  BKT_CUDA_CHECK(cudaEventCreate(&stop));
  std::vector<double> ms;
  for (int i = -2; i < c.opts.repeats; ++i) {
    c.comm.barrier(c.stream);
    BKT_CUDA_CHECK(cudaEventRecord(start, c.stream));
    work(c.stream);
    BKT_CUDA_CHECK(cudaEventRecord(stop, c.stream));
    BKT_CUDA_CHECK(cudaEventSynchronize(stop));
    float local = 0;
    BKT_CUDA_CHECK(cudaEventElapsedTime(&local, start, stop));
    double mine = local, slowest = 0;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (i >= 0) ms.push_back(slowest);
  }
  BKT_CUDA_CHECK(cudaEventDestroy(start));
  BKT_CUDA_CHECK(cudaEventDestroy(stop));
  std::sort(ms.begin(), ms.end());
  return {ms[ms.size() / 2], ms.front(), ms.back()};
}

/// The one-GPU peer, on rank 0 only (the others wait); its timing reaches every rank.
bkt::bench::timing time_single(context& c, const std::function<void(cudaStream_t)>& work) {
  bkt::bench::timing t;
  if (c.rank() == 0) t = bkt::bench::time_it(work, c.stream, c.opts.repeats, 2);
  MPI_Bcast(&t, sizeof(t), MPI_BYTE, 0, MPI_COMM_WORLD);
  return t;
}

void fail(const std::string& what) {
  std::fprintf(stderr, "dist_bench: MISMATCH %s\n", what.c_str());
  MPI_Abort(MPI_COMM_WORLD, 1);
}

void add_row(context& c, nlohmann::json row) {
  if (row.contains("ms") && row["ms"].get<double>() > 0 && row.contains("spread") && row["spread"].get<double>() > 0.03)
    row["noisy"] = true;
  c.rows.push_back(std::move(row));
}

// ---- NCCL's own bandwidth ----

/// Grouped send/recv all-to-all of `per_peer` bytes to every rank, itself included, as nccl-tests'
/// alltoall_perf does, and all-reduce: algbw and busbw by the nccl-tests definitions.
void bench_nccl(context& c, std::int64_t per_peer) {
  const int n = c.size();
  bkt::device_buffer<std::byte> send(per_peer * n, c.stream), recv(per_peer * n, c.stream);
  BKT_CUDA_CHECK(cudaMemsetAsync(send.data(), 1, send.size_bytes(), c.stream));
  const auto all_to_all = time_everywhere(c, [&](cudaStream_t s) {
    BKT_NCCL_CHECK(c.rank(), ncclGroupStart());
    for (int peer = 0; peer < n; ++peer) {
      BKT_NCCL_CHECK(c.rank(), ncclSend(send.data() + peer * per_peer, per_peer, ncclUint8, peer, c.comm.nccl(), s));
      BKT_NCCL_CHECK(c.rank(), ncclRecv(recv.data() + peer * per_peer, per_peer, ncclUint8, peer, c.comm.nccl(), s));
    }
    BKT_NCCL_CHECK(c.rank(), ncclGroupEnd());
  });
  const double size = static_cast<double>(per_peer) * n;  // nccl-tests: bytes per rank, own share included
  const double algbw = size / (all_to_all.median_ms * 1e-3);
  c.nccl_busbw = algbw * (n - 1) / n * 1e-9;
  add_row(c, {{"case", "nccl all-to-all " + std::to_string(per_peer) + " B per peer"}, {"ms", all_to_all.median_ms},
              {"spread", all_to_all.spread()}, {"algbw_GBps", algbw * 1e-9},
              {"busbw_GBps", algbw * (n - 1) / n * 1e-9}});
  for (const std::int64_t bytes : {std::int64_t{256 * 8}, std::int64_t{64} << 20}) {
    bkt::device_buffer<std::int64_t> data(bytes / 8, c.stream);
    BKT_CUDA_CHECK(cudaMemsetAsync(data.data(), 0, data.size_bytes(), c.stream));
    const auto t = time_everywhere(c, [&](cudaStream_t s) {
      BKT_NCCL_CHECK(c.rank(), ncclAllReduce(data.data(), data.data(), bytes / 8, ncclInt64, ncclSum, c.comm.nccl(), s));
    });
    const double bw = static_cast<double>(bytes) / (t.median_ms * 1e-3);
    add_row(c, {{"case", "nccl all-reduce " + std::to_string(bytes) + " B"}, {"ms", t.median_ms}, {"spread", t.spread()},
                {"algbw_GBps", bw * 1e-9}, {"busbw_GBps", bw * 2.0 * (n - 1) / n * 1e-9}});
  }
}

// ---- checks ----

__device__ std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return x;
}

/// sums[0] += mix(key) (the multiset), sums[1] += mix(key ^ mix(first + i)) (keys in place),
/// sums[2] += out-of-order neighbours.
template <class T>
__global__ void digest_kernel(const T* keys, std::int64_t n, std::int64_t first, unsigned long long* sums) {
  unsigned long long multiset = 0, placed = 0, unsorted = 0;
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n; i += std::int64_t{gridDim.x} * blockDim.x) {
    const auto bits = static_cast<std::uint64_t>(bkt::detail::radix_bits(keys[i]));
    multiset += mix(bits);
    placed += mix(bits ^ mix(static_cast<std::uint64_t>(first + i)));
    if (i + 1 < n && bkt::detail::radix_bits(keys[i + 1]) < bkt::detail::radix_bits(keys[i])) ++unsorted;
  }
  atomicAdd(sums, multiset);
  atomicAdd(sums + 1, placed);
  atomicAdd(sums + 2, unsorted);
}

struct digest {
  unsigned long long multiset = 0, placed = 0, unsorted = 0;
};

template <class T>
digest digest_of(const T* keys, std::int64_t n, std::int64_t first, cudaStream_t stream) {
  bkt::device_buffer<unsigned long long> sums(3, stream);
  BKT_CUDA_CHECK(cudaMemsetAsync(sums.data(), 0, sums.size_bytes(), stream));
  if (n > 0) digest_kernel<<<1024, 256, 0, stream>>>(keys, n, first, sums.data());
  BKT_CHECK_LAUNCH(stream);
  const auto host = bkt::to_host_sync(std::span<const unsigned long long>(sums.span()), stream);
  return {host[0], host[1], host[2]};
}

/// Every rank's slice sorted, slices in order across ranks, the multiset of keys that of the input,
/// and (when rank 0 has the one-GPU result) each slice where the one-GPU sort put it.
template <class T>
void check_sorted(context& c, const T* input, std::int64_t n_local, const T* output, const bkt::dist::sort_result& r,
                  bool against_single, const T* single, const std::string& name) {
  const digest in = digest_of(input, n_local, 0, c.stream);
  const digest out = digest_of(output, r.count, r.global_first, c.stream);
  unsigned long long local[3] = {in.multiset, out.multiset, out.unsorted}, total[3] = {};
  MPI_Allreduce(local, total, 3, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (total[0] != total[1]) fail(name + ": the output is not a permutation of the input");
  if (total[2] != 0) fail(name + ": " + std::to_string(total[2]) + " neighbours out of order");
  // Across ranks: each non-empty slice starts at or above where the previous one ended.
  T ends[2] = {};
  if (r.count > 0) {
    BKT_CUDA_CHECK(cudaMemcpy(&ends[0], output, sizeof(T), cudaMemcpyDeviceToHost));
    BKT_CUDA_CHECK(cudaMemcpy(&ends[1], output + r.count - 1, sizeof(T), cudaMemcpyDeviceToHost));
  }
  std::vector<T> all_ends(2 * static_cast<std::size_t>(c.size()));
  std::vector<std::int64_t> counts(static_cast<std::size_t>(c.size())), firsts(counts.size());
  MPI_Allgather(ends, 2 * sizeof(T), MPI_BYTE, all_ends.data(), 2 * sizeof(T), MPI_BYTE, MPI_COMM_WORLD);
  MPI_Allgather(&r.count, 1, MPI_INT64_T, counts.data(), 1, MPI_INT64_T, MPI_COMM_WORLD);
  MPI_Allgather(&r.global_first, 1, MPI_INT64_T, firsts.data(), 1, MPI_INT64_T, MPI_COMM_WORLD);
  bool have_last = false;
  std::uint64_t last = 0;
  for (int q = 0; q < c.size(); ++q) {
    if (counts[q] == 0) continue;
    if (have_last && bkt::detail::radix_bits(all_ends[2 * q]) < last) fail(name + ": slices out of order across ranks");
    last = bkt::detail::radix_bits(all_ends[2 * q + 1]);
    have_last = true;
  }
  if (!against_single) return;  // the same on every rank: all take part in the gather below
  std::vector<unsigned long long> placed(counts.size());
  unsigned long long mine = out.placed;
  MPI_Gather(&mine, 1, MPI_UNSIGNED_LONG_LONG, placed.data(), 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
  if (c.rank() == 0)
    for (int q = 0; q < c.size(); ++q)
      if (digest_of(single + firsts[q], counts[q], firsts[q], c.stream).placed != placed[q])
        fail(name + ": rank " + std::to_string(q) + "'s slice differs from the one-GPU sort");
}

// ---- sorts ----

/// A distributed sort of `total` keys (rank r holding an even part, key i = uniform_key(i)) against
/// one GPU sorting `single_items` of them (all, or one rank's worth for weak scaling).
template <class Value>
void bench_sort(context& c, const std::string& name, std::int64_t total, std::int64_t single_items, bool pairs,
                bkt::dist::sort_merge merge = bkt::dist::sort_merge::automatic, bool with_peer = true,
                int chunks = -1) {
  using Key = std::uint32_t;
  const int n = c.size();
  const std::int64_t first = c.rank() * total / n, n_local = (c.rank() + 1) * total / n - first;
  bkt::dist::workspace ws;
  bkt::device_buffer<Key> keys(n_local, c.stream);
  bkt::device_buffer<Value> values(pairs ? n_local : 0, c.stream);
  bkt::bench::fill(keys.data(), n_local, [first] __device__(std::int64_t i) { return bkt::bench::uniform_key<Key>(first + i); }, c.stream);
  if (pairs) bkt::bench::fill(values.data(), n_local, bkt::bench::positions<Value>{}, c.stream);
  const std::int64_t capacity = bkt::dist::sort_capacity(total, n);
  bkt::device_buffer<Key> out(capacity, c.stream);
  bkt::device_buffer<Value> out_values(pairs ? capacity : 0, c.stream);
  bkt::dist::sort_options profile;
  profile.profile = true;
  profile.merge = merge;
  profile.chunks = chunks >= 0 ? chunks : c.opts.chunks;
  const bool peer = with_peer && !c.opts.skip_single;
  bkt::dist::sort_result result;
  std::vector<std::array<double, 4>> phases;
  const auto dist = time_everywhere(c, [&](cudaStream_t s) {
    result = pairs ? bkt::dist::sort_pairs<Key, Value>(c.comm, keys.span(), values.span(), out.span(), out_values.span(), ws, s, profile)
                   : bkt::dist::sort_keys<Key>(c.comm, keys.span(), out.span(), ws, s, profile);
    phases.push_back(result.phase_ms);
  });
  ws = bkt::dist::workspace{};  // its buffers (about 3 copies of the keys) are not needed past here
  // The one-GPU peer on rank 0: the same keys (the first single_items of them).
  bkt::device_buffer<Key> whole, whole_out;
  bkt::bench::timing single{};
  if (peer) {
    bkt::workspace single_ws;
    if (c.rank() == 0) {
      whole = bkt::device_buffer<Key>(single_items, c.stream);
      whole_out = bkt::device_buffer<Key>(single_items, c.stream);
      bkt::bench::fill(whole.data(), single_items, bkt::bench::uniform_keys<Key>{}, c.stream);
    }
    bkt::device_buffer<Value> whole_values(pairs && c.rank() == 0 ? single_items : 0, c.stream),
        whole_values_out(pairs && c.rank() == 0 ? single_items : 0, c.stream);
    if (pairs && c.rank() == 0) bkt::bench::fill(whole_values.data(), single_items, bkt::bench::positions<Value>{}, c.stream);
    single = time_single(c, [&](cudaStream_t s) {
      if (pairs)
        bkt::radix_sort_pairs<Key, Value>(whole.span(), whole_values.span(), whole_out.span(), whole_values_out.span(), single_ws, s);
      else
        bkt::radix_sort_keys<Key>(whole.span(), whole_out.span(), single_ws, s);
    });
  }
  check_sorted<Key>(c, keys.data(), n_local, out.data(), result, single_items == total && peer, whole_out.data(), name);
  // Phase medians of the slowest rank, the exchange's off-rank bytes against the all-to-all's.
  std::array<double, 4> phase{};
  for (int p = 0; p < 4; ++p) {
    std::vector<double> each;
    for (const auto& ph : phases) each.push_back(ph[p]);
    std::sort(each.begin(), each.end());
    double mine = each[each.size() / 2];
    MPI_Allreduce(&mine, &phase[p], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  }
  // nccl-tests' alltoall formula on the bytes each rank holds (own share included, as the all-to-all
  // row above at the same per-rank volume): algbw = bytes / time, busbw = algbw (N - 1) / N.
  const double rank_bytes = static_cast<double>(n_local) * (sizeof(Key) + (pairs ? sizeof(Value) : 0));
  const double busbw = phase[2] > 0 ? rank_bytes / (phase[2] * 1e-3) * (n - 1) / n * 1e-9 : 0.0;
  nlohmann::json row = {{"case", name}, {"ranks", n}, {"elements", total}, {"ms", dist.median_ms},
                        {"spread", dist.spread()}, {"chunks", profile.chunks}, {"local_sort_ms", phase[0]},
                        {"splitters_ms", phase[1]}, {"exchange_ms", phase[2]}, {"merge_ms", phase[3]},
                        {"exchange_busbw_GBps", busbw}};
  if (c.nccl_busbw > 0) row["exchange_of_nccl"] = busbw / c.nccl_busbw;
  if (peer)
    row.update({{"single_items", single_items}, {"single_ms", single.median_ms}, {"single_spread", single.spread()},
                {"ratio_single_over_dist", single.median_ms / dist.median_ms}});
  add_row(c, row);
}

// ---- selection and histograms ----

void bench_select(context& c, std::int64_t total) {
  const int n = c.size();
  const std::int64_t first = c.rank() * total / n, n_local = (c.rank() + 1) * total / n - first;
  bkt::dist::workspace ws;
  bkt::device_buffer<float> data(n_local, c.stream);
  bkt::bench::fill(data.data(), n_local, [first] __device__(std::int64_t i) { return bkt::bench::uniform_key<float>(first + i); }, c.stream);
  const std::int64_t k = c.opts.top_k;
  bkt::device_buffer<float> values(k, c.stream), single_values(k, c.stream);
  bkt::device_buffer<std::int64_t> positions(k, c.stream), single_positions(k, c.stream);
  const auto dist_top = time_everywhere(c, [&](cudaStream_t s) {
    bkt::dist::top_k<float, std::int64_t>(c.comm, data.span(), k, values.span(), positions.span(), ws, s);
  });
  const int bins = c.opts.bins;
  bkt::device_buffer<std::int64_t> counts(bins, c.stream), single_counts(bins, c.stream);
  const auto dist_hist = time_everywhere(c, [&](cudaStream_t s) {
    bkt::dist::histogram_even<float>(c.comm, data.span(), counts.span(), 0.0f, 1.0f, nullptr, ws, s);
  });
  bkt::bench::timing single_top{}, single_hist{};
  if (!c.opts.skip_single) {
    bkt::device_buffer<float> whole(c.rank() == 0 ? total : 0, c.stream);
    if (c.rank() == 0) bkt::bench::fill(whole.data(), total, bkt::bench::uniform_keys<float>{}, c.stream);
    bkt::workspace single_ws;
    bkt::top_k_options sorted;
    sorted.sorted = true;
    single_top = time_single(c, [&](cudaStream_t s) {
      bkt::top_k<float, std::int64_t>(whole.span(), k, single_values.span(), single_positions.span(), single_ws, s, sorted);
    });
    single_hist = time_single(c, [&](cudaStream_t s) {
      bkt::histogram_even<float>(whole.span(), single_counts.span(), 0.0f, 1.0f, nullptr, single_ws, s);
    });
    if (c.rank() == 0) {
      const auto span_of = [](const auto& b) { return std::span(b.data(), static_cast<std::size_t>(b.size())); };
      if (bkt::to_host_sync(span_of(values), c.stream) != bkt::to_host_sync(span_of(single_values), c.stream) ||
          bkt::to_host_sync(span_of(positions), c.stream) != bkt::to_host_sync(span_of(single_positions), c.stream))
        fail("top_k differs from the one-GPU top_k");
      if (bkt::to_host_sync(span_of(counts), c.stream) != bkt::to_host_sync(span_of(single_counts), c.stream))
        fail("histogram_even differs from the one-GPU histogram");
    }
  }
  const auto row = [&](const std::string& name, const bkt::bench::timing& d, const bkt::bench::timing& s) {
    nlohmann::json r = {{"case", name}, {"ranks", n}, {"elements", total}, {"ms", d.median_ms}, {"spread", d.spread()}};
    if (!c.opts.skip_single)
      r.update({{"single_ms", s.median_ms}, {"single_spread", s.spread()}, {"ratio_single_over_dist", s.median_ms / d.median_ms}});
    add_row(c, r);
  };
  row("top_k f32 k=" + std::to_string(k), dist_top, single_top);
  row("histogram_even f32 bins=" + std::to_string(bins), dist_hist, single_hist);
}

void print_and_write(const context& c, const std::string& device) {
  if (c.rank() != 0) return;
  std::printf("\nbkt::dist on %d x %s, median of %d (slowest rank), warm, CUDA events\n", c.size(), device.c_str(), c.opts.repeats);
  std::printf("%-40s %9s %9s %9s %8s  %s\n", "case", "ms", "1 GPU ms", "1GPU/dist", "spread", "more");
  for (const auto& r : c.rows) {
    const auto number = [&](const char* key) { return r.contains(key) ? r[key].get<double>() : 0.0; };
    std::string more;
    for (const char* key : {"busbw_GBps", "local_sort_ms", "splitters_ms", "exchange_ms", "merge_ms", "exchange_busbw_GBps", "exchange_of_nccl", "chunks"})
      if (r.contains(key)) more += std::string(key) + "=" + std::to_string(number(key)).substr(0, 7) + " ";
    std::printf("%-40s %9.3f %9.3f %8.2fx %7.1f%%  %s%s\n", r["case"].get<std::string>().c_str(), number("ms"),
                number("single_ms"), number("ratio_single_over_dist"), 100.0 * number("spread"), more.c_str(),
                r.contains("noisy") ? "(noisy)" : "");
  }
  if (c.opts.json_path.empty()) return;
  const nlohmann::json doc = {{"benchmark", "dist_bench"}, {"device", device}, {"ranks", c.size()},
                              {"repeats", c.opts.repeats}, {"rows", c.rows}};
  const std::string tmp = c.opts.json_path + ".tmp";
  std::ofstream(tmp) << doc.dump(2) << '\n';
  std::rename(tmp.c_str(), c.opts.json_path.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  options opts;
  CLI::App app("bkt::dist benchmarks: run under mpirun -np N, one GPU per rank");
  app.add_option("--repeats", opts.repeats, "timed runs per case (median reported)")->check(CLI::Range(3, 1000));
  app.add_option("--log2-sort-total", opts.log2_sort_total, "keys of the strong-scaling sort, in all (2^S)")->check(CLI::Range(10, 33));
  app.add_option("--log2-weak", opts.log2_weak, "keys (and pairs) per GPU of the weak-scaling sorts (2^W)")->check(CLI::Range(10, 32));
  app.add_option("--log2-select-total", opts.log2_select_total, "f32 elements of top_k and histogram_even, in all (2^T)")->check(CLI::Range(12, 33));
  app.add_option("--top-k", opts.top_k, "k of top_k")->check(CLI::Range(1, 1 << 20));
  app.add_option("--bins", opts.bins, "bins of histogram_even")->check(CLI::Range(1, 1 << 24));
  app.add_option("--chunks", opts.chunks, "pieces of the sorts' exchange (0: automatic)")->check(CLI::Range(0, 64));
  app.add_flag("--skip-single", opts.skip_single, "skip the one-GPU peers (and the checks against them)");
  app.add_option("--json", opts.json_path, "also write the table as JSON to this file (rank 0)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    MPI_Finalize();
    return code;
  }
  // Every rank decides alike (the communicator is collective).
  int usable = bkt::gpu_available() ? 1 : 0, everywhere = 0;
  MPI_Allreduce(&usable, &everywhere, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (everywhere == 0) {
    if (rank == 0) std::printf("dist_bench: a rank has no usable GPU (%s); nothing to measure\n", bkt::gpu_unavailable_reason().c_str());
    MPI_Finalize();
    return 0;
  }
  int status = 0;
  try {
    bkt::dist::communicator comm(MPI_COMM_WORLD);
    bkt::owned_stream stream;
    context c{opts, comm, stream.get()};
    const auto info = bkt::current_device_info();
    const std::int64_t sort_total = std::int64_t{1} << opts.log2_sort_total;
    const std::int64_t weak = std::int64_t{1} << opts.log2_weak;
    bench_nccl(c, std::max<std::int64_t>(1, sort_total / c.size() / c.size() * 4));
    bench_sort<std::uint32_t>(c, "sort u32 2^" + std::to_string(opts.log2_sort_total) + " in all", sort_total, sort_total, false);
    // The exchange alone, unpipelined (one chunk): its bus bandwidth against the all-to-all's.
    bench_sort<std::uint32_t>(c, "sort u32 2^" + std::to_string(opts.log2_sort_total) + " one chunk", sort_total,
                              sort_total, false, bkt::dist::sort_merge::automatic, false, 1);
    // The other merge of the received runs, on the same keys (no peer: the row above has it).
    bench_sort<std::uint32_t>(c, "sort u32 2^" + std::to_string(opts.log2_sort_total) + " radix-sort merge", sort_total,
                              sort_total, false, bkt::dist::sort_merge::radix_sort, false);
    bench_sort<std::uint32_t>(c, "weak sort u32 2^" + std::to_string(opts.log2_weak) + " per GPU", weak * c.size(), weak, false);
    bench_sort<std::uint32_t>(c, "weak sort u32/u32 2^" + std::to_string(opts.log2_weak) + " per GPU", weak * c.size(), weak, true);
    bench_select(c, std::int64_t{1} << opts.log2_select_total);
    print_and_write(c, info.name);
  } catch (const bkt::error& e) {
    std::fprintf(stderr, "dist_bench: %s\n", e.what());
    status = 3;
  }
  int worst = 0;
  MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return worst;
}
