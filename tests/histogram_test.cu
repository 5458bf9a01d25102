// GPU histograms against bkt::ref over every data type, generator and size: even and range bins,
// user bin functors, every bin count up to 256, and the shared- and global-memory counting paths.
#include <gtest/gtest.h>

#include "bkt/histogram.cuh"
#include "bkt/ref/multisplit.hpp"
#include "support/buckets.hpp"
#include "support/device_run.hpp"
#include "support/generators.hpp"
#include "support/histogram_run.cuh"

namespace {

using namespace bkt::test;

template <class T>
class histogram_test : public ::testing::Test {};
using data_types = ::testing::Types<std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t,
                                    std::uint32_t, float, double>;
TYPED_TEST_SUITE(histogram_test, data_types);

/// A user bin functor: (radix bits % (bins + 3)) - 1, so some ids are negative or past `bins`
/// (both count as outside).
struct spill_bins {
  int bins;
  template <class T>
  __host__ __device__ int operator()(const T& x) const {
    return static_cast<int>(bkt::detail::radix_bits(x) % static_cast<unsigned>(bins + 3)) - 1;
  }
};

/// The middle of the range for the narrow generators (normal, sawtooth, zipf): [-100, 100) or
/// [0, 100) for integers, [-3, 3) for floats.
template <class T>
std::pair<T, T> narrow_limits() {
  if constexpr (std::is_floating_point_v<T>) return {T(-3), T(3)};
  else return {std::is_signed_v<T> ? T(-100) : T(0), T(100)};
}

TYPED_TEST(histogram_test, matches_reference_on_every_generator_and_size) {
  BKT_REQUIRE_GPU();
  using T = TypeParam;
  test_stream stream;
  bkt::workspace ws;
  const std::uint64_t s = seed();
  SCOPED_TRACE("BKT_TEST_SEED=" + std::to_string(s));
  const auto [lo, hi] = histogram_limits<T>();
  const auto [narrow_lo, narrow_hi] = narrow_limits<T>();
  const auto edges = sorted_splitters<T>(64, s);  // 63 bins, some empty between equal edges
  for (const std::int64_t n : sizes())
    for (const auto& gen : sweep_generators<T>()) {
      SCOPED_TRACE(gen.name + " n=" + std::to_string(n));
      const auto data = gen.make(n, s + static_cast<std::uint64_t>(n));
      check_even<T>(data, lo, hi, 1, true, ws, stream);
      check_even<T>(data, lo, hi, 100, true, ws, stream);
      check_even<T>(data, lo, hi, 256, false, ws, stream);
      check_even<T>(data, narrow_lo, narrow_hi, 64, true, ws, stream);
      // The widest range: the whole type for integers; for floats half of it each way, since
      // hi - lo must be finite in the data's precision (bkt::even_bins).
      if constexpr (std::is_floating_point_v<T>)
        check_even<T>(data, std::numeric_limits<T>::lowest() / 2, std::numeric_limits<T>::max() / 2, 37, true, ws, stream);
      else
        check_even<T>(data, std::numeric_limits<T>::lowest(), std::numeric_limits<T>::max(), 37, true, ws, stream);
      check_range<T>(data, edges, true, ws, stream);
      check_range<T>(data, {narrow_lo, narrow_hi}, false, ws, stream);
      const spill_bins user{50};
      check_counts<T>(data, 50, user, true,
                      [&](std::span<const T> d_data, std::span<std::int64_t> counts, std::int64_t* outside) {
                        bkt::histogram<T>(d_data, counts, user, outside, ws, stream);
                      },
                      stream);
      if (::testing::Test::HasFailure()) return;
    }
}

/// Every bin count from 1 to 256 (the register and shared-memory paths), for float and int16 data,
/// and for bytes (which count values, then fold them into bins).
TEST(histogram_bins, every_count_from_1_to_256) {
  BKT_REQUIRE_GPU();
  test_stream stream;
  bkt::workspace ws;
  const std::uint64_t s = seed();
  SCOPED_TRACE("BKT_TEST_SEED=" + std::to_string(s));
  const auto sizes_here = quick_mode() ? std::vector<std::int64_t>{4097} : std::vector<std::int64_t>{4097, 100003};
  for (const std::int64_t n : sizes_here) {
    const auto float_gens = sweep_generators<float>();
    const auto short_gens = sweep_generators<std::int16_t>();
    const auto byte_gens = sweep_generators<std::uint8_t>();
    const auto signed_byte_gens = sweep_generators<std::int8_t>();
    for (std::size_t g = 0; g < float_gens.size(); ++g) {
      const auto floats = float_gens[g].make(n, s + static_cast<std::uint64_t>(n));
      const auto shorts = short_gens[g].make(n, s + static_cast<std::uint64_t>(n));
      const auto bytes = byte_gens[g % byte_gens.size()].make(n, s + static_cast<std::uint64_t>(n));
      const auto signed_bytes = signed_byte_gens[g % signed_byte_gens.size()].make(n, s + static_cast<std::uint64_t>(n));
      const auto float_edges = sorted_splitters<float>(257, s + g);
      for (int bins = 1; bins <= 256; ++bins) {
        if (quick_mode() && bins > 3 && bins % 31 != 0 && bins < 254) continue;
        SCOPED_TRACE(float_gens[g].name + " n=" + std::to_string(n) + " bins=" + std::to_string(bins));
        check_even<float>(floats, -5e5f, 5e5f, bins, true, ws, stream);
        check_even<std::int16_t>(shorts, -20000, 20000, bins, true, ws, stream);
        check_even<std::uint8_t>(bytes, 3, 250, bins, true, ws, stream);
        check_even<std::int8_t>(signed_bytes, -100, 100, bins, true, ws, stream);
        check_range<float>(floats, std::vector<float>(float_edges.begin(), float_edges.begin() + bins + 1), true, ws,
                           stream);
        if (::testing::Test::HasFailure()) return;
      }
    }
  }
}

/// Bin counts around the shared-memory limit (4096) and far beyond it (global atomics), and tables
/// of edges too large for shared memory.
TEST(histogram_bins, large_counts_take_the_global_path) {
  BKT_REQUIRE_GPU();
  test_stream stream;
  bkt::workspace ws;
  const std::uint64_t s = seed();
  SCOPED_TRACE("BKT_TEST_SEED=" + std::to_string(s));
  for (const int bins : {1024, 4096, 4097, 8191, 100000}) {
    const auto int_edges = sorted_splitters<std::int32_t>(bins + 1, s + bins);
    const auto float_edges = sorted_splitters<float>(bins + 1, s + bins);
    for (const std::int64_t n : sizes())
      for (const auto& gen : generators<std::int32_t>()) {
        SCOPED_TRACE(gen.name + " n=" + std::to_string(n) + " bins=" + std::to_string(bins));
        const auto ints = gen.make(n, s + static_cast<std::uint64_t>(n));
        check_even<std::int32_t>(ints, -1'000'000'000, 1'000'000'000, bins, true, ws, stream);
        check_even<std::int32_t>(ints, -3000, 3000, bins, false, ws, stream);
        check_range<std::int32_t>(ints, int_edges, true, ws, stream);
        const auto floats = generators<float>()[0].make(n, s + static_cast<std::uint64_t>(n));
        check_even<float>(floats, -5e5f, 5e5f, bins, true, ws, stream);
        check_range<float>(floats, float_edges, true, ws, stream);
        if (::testing::Test::HasFailure()) return;
      }
  }
  for (const int bins : {1 << 20, static_cast<int>(bkt::histogram_max_bins)}) {
    for (const std::int64_t n : {std::int64_t{1}, std::int64_t{(1 << 20) + 7}}) {
      if (n > sizes().back()) continue;
      SCOPED_TRACE("n=" + std::to_string(n) + " bins=" + std::to_string(bins));
      const auto ints = generators<std::uint32_t>()[0].make(n, s + static_cast<std::uint64_t>(n));
      check_even<std::uint32_t>(ints, 0, 4'000'000'000u, bins, true, ws, stream);
      check_range<std::uint32_t>(ints, sorted_splitters<std::uint32_t>(bins + 1, s), true, ws, stream);
    }
  }
}

}  // namespace
