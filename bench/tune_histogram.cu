// Tuning run for the counting pass under histogram_even (scripts/tune-histogram.sh; the CMake
// targets tune_histogram_ITEMS_BLOCKS, BKT_TUNE_HISTOGRAM_VARIANTS in bench/CMakeLists.txt): one
// build per pair of BKT_COUNT_LOAD_ITEMS and BKT_COUNT_MIN_BLOCKS (count_kernel.cuh), each
// compiling the histogram's headers itself.
//
// Rows, 2^28 f32 against CUB's HistogramEven on the same data: 256 bins of [0, 1] (exact edges:
// no element needs them) and 100 (edges a multiple of 0.01, rounded: elements beside them are
// checked) over uniform data; all elements 0.5, an edge of both (with 100 bins every element
// takes the correction), and all 0.5 + 1/512 (mid-bin); one bin; integers -128..127 in 256 bins
// of [-128, 128] (exact edges not from 0, every element on one). Each row checks every count
// against the same bins on the host and, for the all-equal rows, that one bin holds them all.
#include <cub/device/device_histogram.cuh>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bkt/detail/histogram/arguments.hpp"
#include "bkt/detail/histogram/dispatch.cuh"
#include "bkt/device_buffer.hpp"
#include "bkt/memory.hpp"
#include "cub_peer.cuh"
#include "harness.hpp"
#include "inputs.cuh"

namespace {

using bkt::bench::cub_count_calls;
using bkt::bench::cub_storage;

/// One row: histogram_even of `data` into `bins` bins of [lo, hi]; `full_bin` (or -1) must hold all.
void even_row(bkt::bench::report& rep, const bkt::bench::options& opts, const std::string& name,
              const bkt::device_buffer<float>& data, float lo, float hi, int bins, int full_bin, bkt::workspace& ws,
              cub_storage& cub, cudaStream_t stream) {
  const std::int64_t n = data.size();
  const double e = static_cast<double>(n);
  bkt::device_buffer<std::int64_t> ours(bins, stream), outside(1, stream);
  bkt::device_buffer<int> peer(bins, stream);
  const auto fn = bkt::detail::histogram::checked_even_bins<float>(bins, lo, hi);
  const auto histogram = cub_count_calls(
      cub, "cub::HistEv", n,
      [&](void* t, std::size_t& b, cudaStream_t s, auto count) {
        return cub::DeviceHistogram::HistogramEven(t, b, data.data(), peer.data(), bins + 1, lo, hi, count, s);
      },
      stream);
  bkt::bench::compare(
      rep, opts, {name, e, e * sizeof(float), "read n*4"}, histogram,
      [&](cudaStream_t s) {
        bkt::detail::histogram::run<float, bkt::detail::histogram::no_weight>(
            data.data(), nullptr, n, bins, fn, ours.data(), outside.data(), ws, s);
      },
      [&](const bkt::bench::comparison& row) {
        // The bins of every element by the same functor on the host (NumPy's rule, CPU path).
        std::vector<std::int64_t> want(static_cast<std::size_t>(bins) + 1, 0);
        for (const float x : bkt::to_host_sync<float>(data.span(), stream)) ++want[static_cast<std::size_t>(fn(x))];
        auto counts = bkt::to_host_sync<std::int64_t>(ours.span(), stream);
        counts.push_back(bkt::read_sync(outside.data(), stream));
        if (counts != want || (full_bin >= 0 && counts[full_bin] != n)) {
          std::fprintf(stderr, "MISMATCH %s: counts differ from the host's\n", row.name.c_str());
          std::exit(1);
        }
      },
      stream);
}

}  // namespace

int main(int argc, char** argv) {
  return bkt::bench::run_main(argc, argv, "tune_histogram", "Counting pass tuning", [](const bkt::bench::options& opts,
                                                                                           cudaStream_t stream) {
    bkt::bench::report rep("histogram_even, load items " + std::to_string(BKT_COUNT_LOAD_ITEMS) + ", blocks " +
                               std::to_string(BKT_COUNT_MIN_BLOCKS),
                           opts, stream);
    const std::int64_t n = std::int64_t{1} << opts.log2_items;
    bkt::device_buffer<float> data(n, stream);
    bkt::workspace ws;
    cub_storage cub;
    bkt::bench::fill(data.data(), n, bkt::bench::uniform_keys<float>{}, stream);
    even_row(rep, opts, "even f32 bins=256", data, 0, 1, 256, -1, ws, cub, stream);
    even_row(rep, opts, "even f32 bins=100", data, 0, 1, 100, -1, ws, cub, stream);
    even_row(rep, opts, "even f32 bins=1", data, 0, 1, 1, -1, ws, cub, stream);
    bkt::bench::fill(data.data(), n, [] __device__(std::int64_t) { return 0.5f; }, stream);
    even_row(rep, opts, "even f32 bins=256 all 0.5 (edge)", data, 0, 1, 256, 128, ws, cub, stream);
    even_row(rep, opts, "even f32 bins=100 all 0.5 (edge)", data, 0, 1, 100, 50, ws, cub, stream);
    bkt::bench::fill(data.data(), n, [] __device__(std::int64_t) { return 0.5f + 1.0f / 512; }, stream);
    even_row(rep, opts, "even f32 bins=256 all mid-bin", data, 0, 1, 256, 128, ws, cub, stream);
    // Integers -128..127 (a hash of the index): each on an edge of [-128, 128] in 256 bins.
    bkt::bench::fill(data.data(), n, [] __device__(std::int64_t i) {
      return static_cast<float>(static_cast<int>((static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull) >> 56) - 128);
    }, stream);
    even_row(rep, opts, "even f32 bins=256 [-128, 128] integers", data, -128, 128, 256, -1, ws, cub, stream);
    rep.finish();
  });
}
