// Histograms against CUB on 2^28 elements (larger than the 50 MB L2), same data, same process.
//
// Bytes that must move (the limit): read every element once, 4 B per f32 and 1 B per u8; the
// counts (at most 4096 int64) are negligible.
//
// Peer: cub::DeviceHistogram::HistogramEven (levels = bins + 1 from lo to hi) and HistogramRange
// (the same edges), with int counters. Both count [lo, hi) and [edges[i], edges[i + 1]) and drop
// the rest, with the same float arithmetic ((x - lo) * (bins / (hi - lo)), exact for integers), so
// every bin must agree; counts are compared modulo 2^32, as CUB's int counters wrap past 2^31.
// Our counts plus our "outside" count must also add up to n.
//
// The u8 row takes 256 bins over [0, 256): integer data take int64 bounds.
#include <cub/device/device_histogram.cuh>

#include <cstdint>
#include <cstdio>
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
#include "bkt/memory.hpp"
#include "cub_peer.cuh"
#include "harness.hpp"
#include "inputs.cuh"

namespace {

using bkt::bench::compare;
using bkt::bench::comparison;
using bkt::bench::cub_storage;
using bkt::bench::with_cub_count;

/// Output of both sides: our int64 counts and outside count, CUB's int counts.
struct counts {
  bkt::device_buffer<std::int64_t> ours;
  bkt::device_buffer<std::int64_t> outside;
  bkt::device_buffer<int> peer;
  counts(int max_bins, cudaStream_t stream) : ours(max_bins, stream), outside(1, stream), peer(max_bins, stream) {}
};

/// Stops the benchmark when the last runs' counts disagree, or ours do not add up to n.
void expect_same_counts(const counts& c, int bins, std::int64_t n, const std::string& what, cudaStream_t stream) {
  const auto ours = bkt::to_host_sync<std::int64_t>({c.ours.data(), static_cast<std::size_t>(bins)}, stream);
  const auto peer = bkt::to_host_sync<int>({c.peer.data(), static_cast<std::size_t>(bins)}, stream);
  const std::int64_t outside = bkt::read_sync(c.outside.data(), stream);
  int differ = 0;
  for (int i = 0; i < bins; ++i) differ += static_cast<std::uint32_t>(ours[i]) != static_cast<std::uint32_t>(peer[i]);
  const std::int64_t total = std::accumulate(ours.begin(), ours.end(), outside);
  if (differ != 0 || total != n) {
    std::fprintf(stderr, "MISMATCH %s: %d of %d bins differ from the peer; counts + outside = %lld of %lld\n",
                 what.c_str(), differ, bins, static_cast<long long>(total), static_cast<long long>(n));
    std::exit(1);
  }
}

/// The row's check: the bins of both sides agree and ours add up to n.
std::function<void(const comparison&)> same_counts(const counts& c, int bins, cudaStream_t stream) {
  return [&c, bins, stream](const comparison& row) {
    expect_same_counts(c, bins, static_cast<std::int64_t>(row.elements), row.name, stream);
  };
}

/// histogram_even over [lo, hi) against HistogramEven with levels lo..hi (CUB's LevelT is `Level`).
template <class T, class Level>
void compare_even(bkt::bench::report& rep, const bkt::bench::options& opts, const std::string& name,
                  const bkt::device_buffer<T>& data, int bins, bkt::histogram_level<T> lo,
                  bkt::histogram_level<T> hi, counts& c, bkt::workspace& ws,
                  cub_storage& cub, cudaStream_t stream) {
  const std::int64_t n = data.size();
  const double e = static_cast<double>(n);
  const auto histogram = cub.prepare(
      [&](void* t, std::size_t& b, cudaStream_t s) {
        return with_cub_count(n, [&](auto count) {
          return cub::DeviceHistogram::HistogramEven(t, b, data.data(), c.peer.data(), bins + 1, static_cast<Level>(lo),
                                                     static_cast<Level>(hi), count, s);
        });
      },
      stream);
  compare(rep, opts, {name, e, e * sizeof(T), "read n*" + std::to_string(sizeof(T))}, "cub::HistEv",
          [&](cudaStream_t s) {
            bkt::histogram_even<T>(data.span(), {c.ours.data(), static_cast<std::size_t>(bins)}, lo, hi,
                                   c.outside.data(), ws, s);
          },
          histogram, same_counts(c, bins, stream), stream);
}

void bench_float(bkt::bench::report& rep, const bkt::bench::options& opts, std::int64_t n, bkt::workspace& ws,
                 cub_storage& cub, cudaStream_t stream) {
  constexpr int max_bins = 4096;
  counts c(max_bins, stream);
  bkt::device_buffer<float> data(n, stream);
  bkt::bench::fill(data.data(), n, bkt::bench::uniform_keys<float>{}, stream);
  for (const int bins : {1, 2, 3, 4, 8, 16, 32, 64, 100, 128, 256, 512, 1024, 2048, max_bins})
    compare_even<float, float>(rep, opts, "histogram_even f32 bins=" + std::to_string(bins), data, bins, 0.0f, 1.0f,
                               c, ws, cub, stream);

  // histogram_range: 256 bins between 257 sorted distinct edges, 0 and 1 included.
  constexpr int range_bins = 256;
  std::mt19937_64 random(2024);
  std::set<float> distinct{0.0f, 1.0f};
  while (distinct.size() < range_bins + 1) distinct.insert(static_cast<float>(random() >> 40) * 0x1.0p-24f);
  const std::vector<float> host_edges(distinct.begin(), distinct.end());  // ascending, as the set keeps them
  const bkt::device_buffer<float> edges = bkt::to_device<float>(host_edges, stream);
  const double e = static_cast<double>(n);
  const auto histogram = cub.prepare(
      [&](void* t, std::size_t& b, cudaStream_t s) {
        return with_cub_count(n, [&](auto count) {
          return cub::DeviceHistogram::HistogramRange(t, b, data.data(), c.peer.data(), range_bins + 1, edges.data(),
                                                      count, s);
        });
      },
      stream);
  compare(rep, opts, {"histogram_range f32 bins=256", e, e * sizeof(float), "read n*4"}, "cub::HistRng",
          [&](cudaStream_t s) {
            bkt::histogram_range<float>(data.span(), edges.span(), {c.ours.data(), std::size_t{range_bins}},
                                        c.outside.data(), ws, s);
          },
          histogram, same_counts(c, range_bins, stream), stream);

  // Every element in one bin: the worst case for atomics, on either side.
  bkt::bench::fill(data.data(), n, [] __device__(std::int64_t) { return 0.5f; }, stream);
  compare_even<float, float>(rep, opts, "histogram_even f32 bins=256 equal", data, 256, 0.0f, 1.0f, c, ws, cub,
                             stream);
}

void bench_bytes(bkt::bench::report& rep, const bkt::bench::options& opts, std::int64_t n, bkt::workspace& ws,
                 cub_storage& cub, cudaStream_t stream) {
  constexpr int max_bins = 256;
  counts c(max_bins, stream);
  bkt::device_buffer<std::uint8_t> data(n, stream);
  bkt::bench::fill(data.data(), n, bkt::bench::uniform_keys<std::uint8_t>{}, stream);
  for (const int bins : {1, 16, max_bins})
    compare_even<std::uint8_t, int>(rep, opts, "histogram_even u8 bins=" + std::to_string(bins), data, bins, 0, 256, c,
                                    ws, cub, stream);
  bkt::bench::fill(data.data(), n, [] __device__(std::int64_t) { return std::uint8_t{200}; }, stream);
  compare_even<std::uint8_t, int>(rep, opts, "histogram_even u8 bins=256 equal", data, max_bins, 0, 256, c, ws, cub,
                                  stream);
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
                                bench_float(rep, opts, n, ws, cub, stream);
                                bench_bytes(rep, opts, n, ws, cub, stream);
                                rep.finish();
                              });
}
