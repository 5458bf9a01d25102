// Histograms against CUB on 2^28 elements (larger than the 50 MB L2), same data, same process.
//
// Bytes that must move (the limit): read every element once, 4 B per f32 and 1 B per u8; the
// counts (at most 4096 int64) are negligible.
//
// Peer: cub::DeviceHistogram::HistogramEven (levels = bins + 1 from lo to hi) and HistogramRange
// (the same edges), with int counters, each called with an int and an int64_t sample count (the
// row reports the faster call). The rules differ: ours is numpy.histogram's (edges from
// numpy.linspace, each element's bin checked against them, the last bin closed), CUB's HistogramEven
// computes (x - lo) * (bins / (hi - lo)) in float and takes no edge into account, and both of CUB's
// forms leave x == hi out. So each row checks ours against bkt::ref bin for bin (the run stops on a
// difference) and only reports in how many bins CUB's counts differ (compared modulo 2^32, as CUB's
// int counters wrap past 2^31). Our counts plus our "outside" count must also add up to n.
//
// The u8 row takes 256 bins over [0, 256]: integer data take int64 bounds. The log-edges row bins
// log-uniform data in (1e-6, 1] between 257 log-spaced edges: bins of very different widths.
#include <cub/device/device_histogram.cuh>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "bkt/device_buffer.hpp"
#include "bkt/histogram.hpp"
#include "bkt/ref/multisplit.hpp"
#include "bkt/memory.hpp"
#include "cub_peer.cuh"
#include "harness.hpp"
#include "inputs.cuh"

namespace {

using bkt::bench::compare;
using bkt::bench::comparison;
using bkt::bench::cub_count_calls;
using bkt::bench::cub_storage;

/// Output of both sides: our int64 counts and outside count, CUB's int counts.
struct counts {
  bkt::device_buffer<std::int64_t> ours;
  bkt::device_buffer<std::int64_t> outside;
  bkt::device_buffer<int> peer;
  counts(int max_bins, cudaStream_t stream) : ours(max_bins, stream), outside(1, stream), peer(max_bins, stream) {}
};

/// The benchmark input on the host too, for bkt::ref; and the lines that say where CUB differs,
/// printed after the table.
template <class T>
struct reference {
  std::vector<T> data;
  std::vector<std::string>* cub_notes;
};

/// Stops the benchmark when our counts differ from bkt::ref's, or do not add up to n; notes the
/// bins where CUB's differ.
template <class T, class BinFn>
void check_counts(const counts& c, int bins, const reference<T>& ref, const BinFn& bin_of, const std::string& what,
                  cudaStream_t stream) {
  const auto ours = bkt::to_host_sync<std::int64_t>({c.ours.data(), static_cast<std::size_t>(bins)}, stream);
  const auto peer = bkt::to_host_sync<int>({c.peer.data(), static_cast<std::size_t>(bins)}, stream);
  const std::int64_t outside = bkt::read_sync(c.outside.data(), stream);
  std::vector<std::int64_t> want(static_cast<std::size_t>(bins));
  const std::int64_t want_outside = bkt::ref::histogram<T>(ref.data, want, bin_of);
  int wrong = 0, cub_differs = 0;
  std::int64_t cub_elements = 0;
  for (int i = 0; i < bins; ++i) {
    wrong += ours[i] != want[i];
    if (static_cast<std::uint32_t>(ours[i]) != static_cast<std::uint32_t>(peer[i])) {
      ++cub_differs;
      cub_elements += std::abs(static_cast<std::int64_t>(static_cast<std::int32_t>(static_cast<std::uint32_t>(ours[i]) -
                                                                                   static_cast<std::uint32_t>(peer[i]))));
    }
  }
  const std::int64_t total = std::accumulate(ours.begin(), ours.end(), outside);
  const auto n = static_cast<std::int64_t>(ref.data.size());
  if (wrong != 0 || outside != want_outside || total != n) {
    std::fprintf(stderr, "MISMATCH %s: %d of %d bins differ from bkt::ref; outside %lld (ref %lld); counts + outside = %lld of %lld\n",
                 what.c_str(), wrong, bins, static_cast<long long>(outside), static_cast<long long>(want_outside),
                 static_cast<long long>(total), static_cast<long long>(n));
    std::exit(1);
  }
  if (cub_differs != 0)
    ref.cub_notes->push_back(what + ": CUB differs in " + std::to_string(cub_differs) + " of " + std::to_string(bins) +
                             " bins, by " + std::to_string(cub_elements) + " elements in all");
}

/// The row's check (check_counts), for compare().
template <class T, class BinFn>
std::function<void(const comparison&)> same_as_reference(const counts& c, int bins, const reference<T>& ref, BinFn bin_of,
                                                         cudaStream_t stream) {
  return [&c, bins, &ref, bin_of, stream](const comparison& row) { check_counts(c, bins, ref, bin_of, row.name, stream); };
}

/// histogram_even over [lo, hi] against HistogramEven with levels lo..hi (CUB's LevelT is `Level`).
template <class T, class Level>
void compare_even(bkt::bench::report& rep, const bkt::bench::options& opts, const std::string& name,
                  const bkt::device_buffer<T>& data, const reference<T>& ref, int bins, bkt::histogram_level<T> lo,
                  bkt::histogram_level<T> hi, counts& c, bkt::workspace& ws, cub_storage& cub, cudaStream_t stream) {
  const std::int64_t n = data.size();
  const double e = static_cast<double>(n);
  const auto histogram = cub_count_calls(
      cub, "cub::HistEv", n,
      [&](void* t, std::size_t& b, cudaStream_t s, auto count) {
        return cub::DeviceHistogram::HistogramEven(t, b, data.data(), c.peer.data(), bins + 1, static_cast<Level>(lo),
                                                   static_cast<Level>(hi), count, s);
      },
      stream);
  compare(rep, opts, {name, e, e * sizeof(T), "read n*" + std::to_string(sizeof(T))}, histogram,
          [&](cudaStream_t s) {
            bkt::histogram_even<T>(data.span(), {c.ours.data(), static_cast<std::size_t>(bins)}, lo, hi,
                                   c.outside.data(), ws, s);
          },
          same_as_reference(c, bins, ref, bkt::even_bins<T>::make(lo, hi, bins), stream), stream);
}

/// histogram_range between `host_edges` against HistogramRange with the same edges.
void compare_range(bkt::bench::report& rep, const bkt::bench::options& opts, const std::string& name,
                   const bkt::device_buffer<float>& data, const reference<float>& ref,
                   const std::vector<float>& host_edges, counts& c, bkt::workspace& ws, cub_storage& cub,
                   cudaStream_t stream) {
  const int bins = static_cast<int>(host_edges.size()) - 1;
  const bkt::device_buffer<float> edges = bkt::to_device<float>(host_edges, stream);
  const std::int64_t n = data.size();
  const double e = static_cast<double>(n);
  const auto histogram = cub_count_calls(
      cub, "cub::HistRng", n,
      [&](void* t, std::size_t& b, cudaStream_t s, auto count) {
        return cub::DeviceHistogram::HistogramRange(t, b, data.data(), c.peer.data(), bins + 1, edges.data(), count, s);
      },
      stream);
  compare(rep, opts, {name, e, e * sizeof(float), "read n*4"}, histogram,
          [&](cudaStream_t s) {
            bkt::histogram_range<float>(data.span(), edges.span(), {c.ours.data(), static_cast<std::size_t>(bins)},
                                        c.outside.data(), ws, s);
          },
          same_as_reference(c, bins, ref, bkt::range_bins<float>{host_edges.data(), bins}, stream), stream);
}

void bench_float(bkt::bench::report& rep, const bkt::bench::options& opts, std::int64_t n, bkt::workspace& ws,
                 cub_storage& cub, std::vector<std::string>& cub_notes, cudaStream_t stream) {
  constexpr int max_bins = 4096;
  counts c(max_bins, stream);
  bkt::device_buffer<float> data(n, stream);
  bkt::bench::fill(data.data(), n, bkt::bench::uniform_keys<float>{}, stream);
  reference<float> ref{bkt::to_host_sync<float>(data.span(), stream), &cub_notes};
  for (const int bins : {1, 2, 3, 4, 8, 16, 32, 64, 100, 128, 256, 512, 1024, 2048, max_bins})
    compare_even<float, float>(rep, opts, "histogram_even f32 bins=" + std::to_string(bins), data, ref, bins, 0.0, 1.0,
                               c, ws, cub, stream);

  // histogram_range: 256 bins between 257 sorted distinct edges, 0 and 1 included.
  constexpr int range_bins = 256;
  std::mt19937_64 random(2024);
  std::set<float> distinct{0.0f, 1.0f};
  while (distinct.size() < range_bins + 1) distinct.insert(static_cast<float>(random() >> 40) * 0x1.0p-24f);
  compare_range(rep, opts, "histogram_range f32 bins=256", data, ref, std::vector<float>(distinct.begin(), distinct.end()),
                c, ws, cub, stream);

  // histogram_range between log-spaced edges, 1e-6 to 1 (bin widths from 5e-8 to 0.05), over
  // log-uniform data: every bin about as full, most edges far from a float grid.
  std::vector<float> log_edges(range_bins + 1);
  for (int i = 0; i <= range_bins; ++i) log_edges[i] = static_cast<float>(std::pow(10.0, -6.0 + 6.0 * i / range_bins));
  bkt::bench::fill(data.data(), n,
                   [] __device__(std::int64_t i) { return exp10f(-6.0f * bkt::bench::uniform_key<float>(i)); }, stream);
  ref.data = bkt::to_host_sync<float>(data.span(), stream);
  compare_range(rep, opts, "histogram_range f32 bins=256 log", data, ref, log_edges, c, ws, cub, stream);

  // Every element in one bin: the worst case for atomics, on either side.
  bkt::bench::fill(data.data(), n, [] __device__(std::int64_t) { return 0.5f; }, stream);
  ref.data.assign(static_cast<std::size_t>(n), 0.5f);
  compare_even<float, float>(rep, opts, "histogram_even f32 bins=256 equal", data, ref, 256, 0.0, 1.0, c, ws, cub,
                             stream);
}

void bench_bytes(bkt::bench::report& rep, const bkt::bench::options& opts, std::int64_t n, bkt::workspace& ws,
                 cub_storage& cub, std::vector<std::string>& cub_notes, cudaStream_t stream) {
  constexpr int max_bins = 256;
  counts c(max_bins, stream);
  bkt::device_buffer<std::uint8_t> data(n, stream);
  bkt::bench::fill(data.data(), n, bkt::bench::uniform_keys<std::uint8_t>{}, stream);
  reference<std::uint8_t> ref{bkt::to_host_sync<std::uint8_t>(data.span(), stream), &cub_notes};
  for (const int bins : {1, 16, max_bins})
    compare_even<std::uint8_t, int>(rep, opts, "histogram_even u8 bins=" + std::to_string(bins), data, ref, bins, 0, 256,
                                    c, ws, cub, stream);
  bkt::bench::fill(data.data(), n, [] __device__(std::int64_t) { return std::uint8_t{200}; }, stream);
  ref.data.assign(static_cast<std::size_t>(n), std::uint8_t{200});
  compare_even<std::uint8_t, int>(rep, opts, "histogram_even u8 bins=256 equal", data, ref, max_bins, 0, 256, c, ws,
                                  cub, stream);
}

}  // namespace

int main(int argc, char** argv) {
  return bkt::bench::run_main(argc, argv, "histogram_bench", "Histograms: bucketeer against CUB",
                              [](const bkt::bench::options& opts, cudaStream_t stream) {
                                bkt::bench::report rep("histograms, n = 2^" + std::to_string(opts.log2_items), opts,
                                                       stream);
                                const std::int64_t n = std::int64_t{1} << opts.log2_items;
                                bkt::workspace ws;  // one workspace and one CUB storage for every row
                                cub_storage cub;
                                std::vector<std::string> cub_notes;  // where CUB's rule gives other counts
                                bench_float(rep, opts, n, ws, cub, cub_notes, stream);
                                bench_bytes(rep, opts, n, ws, cub, cub_notes, stream);
                                rep.finish();
                                std::printf("\nEvery row equals bkt::ref (numpy.histogram's rule) bin for bin.%s\n",
                                            cub_notes.empty() ? " CUB agrees on every row." : "");
                                for (const auto& note : cub_notes) std::printf("  %s\n", note.c_str());
                              });
}
