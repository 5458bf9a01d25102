// The bucket functors' policies (bkt/buckets.hpp), checked on the CPU: radix order of bit ranges,
// clamping and NaN in delta and splitter buckets. The histograms' bins: histogram_cpu_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "bkt/buckets.hpp"
#include "support/generators.hpp"

namespace {

using namespace bkt::test;

template <class T>
using limits = std::numeric_limits<T>;

TEST(bit_range_buckets, floats_order_as_radix_sort) {
  using L = limits<float>;
  // Ascending in radix order; -0.0 and +0.0 are distinct, NaNs sit at both ends by sign.
  const std::vector<float> ascending = {-L::quiet_NaN(), -L::infinity(), -L::max(), -1.0f, -L::min(),
                                        -L::denorm_min(), -0.0f, 0.0f, L::denorm_min(), L::min(),
                                        1.0f, L::max(), L::infinity(), L::quiet_NaN()};
  const bkt::bit_range_buckets<float> top{24, 8}, high16{16, 16};
  EXPECT_EQ(top.num_buckets(), 256);
  EXPECT_EQ(high16.num_buckets(), 65536);
  for (std::size_t i = 1; i < ascending.size(); ++i) {
    SCOPED_TRACE("element " + std::to_string(i));
    EXPECT_LT(bkt::detail::radix_bits(ascending[i - 1]), bkt::detail::radix_bits(ascending[i]));
    EXPECT_LE(top(ascending[i - 1]), top(ascending[i]));
    EXPECT_LE(high16(ascending[i - 1]), high16(ascending[i]));
  }
  EXPECT_LT(top(-1.0f), top(1.0f));
  EXPECT_EQ(top(-0.0f), 0x7f);
  EXPECT_EQ(top(0.0f), 0x80);
  EXPECT_EQ(top(-L::quiet_NaN()), 0);
  EXPECT_EQ(top(L::quiet_NaN()), 255);
  EXPECT_EQ((bkt::bit_range_buckets<double>{56, 8}(-0.0)), 0x7f);
  EXPECT_EQ((bkt::bit_range_buckets<double>{56, 8}(0.0)), 0x80);
  EXPECT_EQ((bkt::bit_range_buckets<float>{0, 8}(-0.0f)), 0xff) << "-0.0 is all bits flipped";
}

TEST(bit_range_buckets, signed_integers_order_by_value) {
  const bkt::bit_range_buckets<std::int32_t> top{24, 8};
  EXPECT_EQ(top(limits<std::int32_t>::min()), 0);
  EXPECT_EQ(top(-1), 127);
  EXPECT_EQ(top(0), 128);
  EXPECT_EQ(top(limits<std::int32_t>::max()), 255);
  EXPECT_LT(top(-1), top(1));
  EXPECT_EQ((bkt::bit_range_buckets<std::int8_t>{0, 8}(std::int8_t{-128})), 0);
  EXPECT_EQ((bkt::bit_range_buckets<std::int8_t>{0, 8}(std::int8_t{127})), 255);
  EXPECT_EQ((bkt::bit_range_buckets<std::int64_t>{60, 4}(std::int64_t{-1})), 7);
  EXPECT_EQ((bkt::bit_range_buckets<std::uint64_t>{48, 16}(limits<std::uint64_t>::max())), 65535);
  EXPECT_EQ((bkt::bit_range_buckets<std::uint32_t>{4, 3}(0xffu)), 7) << "bits 4..6";
  EXPECT_EQ((bkt::bit_range_buckets<std::uint32_t>{4, 3}(0x8fu)), 0);
  const bkt::bit_range_buckets<std::uint16_t> none{3, 0};
  EXPECT_EQ(none.num_buckets(), 1);
  EXPECT_EQ(none(std::uint16_t{0xffff}), 0) << "0 bits: one bucket";
}

TEST(delta_buckets, integers_clamp_and_divide_exactly) {
  const bkt::delta_buckets<int> b{.lo = 10, .delta = 5, .buckets = 4};
  EXPECT_EQ(b.num_buckets(), 4);
  EXPECT_EQ(b(limits<int>::min()), 0) << "below lo: bucket 0";
  EXPECT_EQ(b(9), 0);
  EXPECT_EQ(b(10), 0);
  EXPECT_EQ(b(14), 0);
  EXPECT_EQ(b(15), 1);
  EXPECT_EQ(b(24), 2);
  EXPECT_EQ(b(25), 3);
  EXPECT_EQ(b(limits<int>::max()), 3) << "clamped to the last";

  using U = std::uint64_t;
  const U top = limits<U>::max();
  const bkt::delta_buckets<U> halves{.lo = 0, .delta = U{1} << 63, .buckets = 3};
  EXPECT_EQ(halves(top), 1);
  EXPECT_EQ(halves(U{1} << 63), 1);
  EXPECT_EQ(halves((U{1} << 63) - 1), 0);
  EXPECT_EQ((bkt::delta_buckets<U>{.lo = 0, .delta = 1, .buckets = 1 << 30}(top)), (1 << 30) - 1);
  EXPECT_EQ((bkt::delta_buckets<U>{.lo = 1, .delta = top, .buckets = 9}(top)), 0) << "distance top - 1 < delta";
  EXPECT_EQ((bkt::delta_buckets<U>{.lo = 0, .delta = top, .buckets = 9}(top)), 1);
  using S = std::int64_t;
  const bkt::delta_buckets<S> wide{.lo = limits<S>::min(), .delta = U{1} << 62, .buckets = 8};
  EXPECT_EQ(wide(limits<S>::min()), 0);
  EXPECT_EQ(wide(-1), 1);
  EXPECT_EQ(wide(0), 2) << "distance 2^63 from the minimum";
  EXPECT_EQ(wide(limits<S>::max()), 3);
  EXPECT_EQ((bkt::delta_buckets<std::uint8_t>{.lo = 3, .delta = 1000, .buckets = 4}(std::uint8_t{255})), 0);
  EXPECT_EQ((bkt::delta_buckets<std::int32_t>{.lo = 0, .delta = U{1} << 40, .buckets = 4}(limits<std::int32_t>::max())), 0)
      << "a delta wider than any distance";
}

template <class T>
int delta_brute_force(const bkt::delta_buckets<T>& b, T x) {
  if (x < b.lo) return 0;
  const __int128 steps = (static_cast<__int128>(x) - static_cast<__int128>(b.lo)) / static_cast<__int128>(b.delta);
  return static_cast<int>(std::min<__int128>(steps, b.buckets - 1));
}

template <class T>
void check_delta_random(std::mt19937_64& rng) {
  for (int trial = 0; trial < 100000; ++trial) {
    const T lo = static_cast<T>(rng()), x = static_cast<T>(rng());
    const std::uint64_t delta = std::max<std::uint64_t>(1, rng() >> (rng() % 64));
    const int buckets = 1 + static_cast<int>(rng() % 100000);
    const bkt::delta_buckets<T> b{.lo = lo, .delta = delta, .buckets = buckets};
    ASSERT_EQ(b(x), delta_brute_force(b, x)) << "lo " << +lo << " delta " << delta << " buckets " << buckets << " x " << +x;
  }
}

TEST(delta_buckets, integers_match_128_bit_arithmetic) {
  std::mt19937_64 rng(seed());
  check_delta_random<std::int8_t>(rng);
  check_delta_random<std::uint16_t>(rng);
  check_delta_random<std::int32_t>(rng);
  check_delta_random<std::uint32_t>(rng);
  check_delta_random<std::int64_t>(rng);
  check_delta_random<std::uint64_t>(rng);
}

TEST(delta_buckets, floats_compare_values) {
  using L = limits<double>;
  const bkt::delta_buckets<double> b{.lo = 1.5, .delta = 0.5, .buckets = 6};
  EXPECT_EQ(b(2.0), 1);
  EXPECT_EQ(b(1.5), 0);
  EXPECT_EQ(b(1.0), 0) << "below lo";
  EXPECT_EQ(b(-L::infinity()), 0);
  EXPECT_EQ(b(100.0), 5) << "clamped";
  EXPECT_EQ(b(L::infinity()), 5);
  EXPECT_EQ(b(L::quiet_NaN()), 5) << "NaN last";
  EXPECT_EQ(b(-L::quiet_NaN()), 5) << "negative NaN last too";
  const bkt::delta_buckets<float> zero{.lo = 0.0f, .delta = 1.0f, .buckets = 4};
  EXPECT_EQ(zero(-0.0f), 0) << "-0.0 equals lo = +0.0";
  EXPECT_EQ((bkt::delta_buckets<float>{.lo = -0.0f, .delta = 1.0f, .buckets = 4}(0.0f)), 0);
  EXPECT_EQ(zero(3.999f), 3);
  EXPECT_EQ(zero(limits<float>::denorm_min()), 0);
}

TEST(splitter_buckets, upper_bound_with_duplicates_and_nan) {
  const std::vector<int> s = {10, 20, 20, 30};
  const bkt::splitter_buckets<int> b{s.data(), 4};
  EXPECT_EQ(b.num_buckets(), 5);
  const std::vector<std::pair<int, int>> cases = {{limits<int>::min(), 0}, {9, 0}, {10, 1}, {19, 1}, {20, 3},
                                                  {25, 3}, {30, 4}, {limits<int>::max(), 4}};
  for (const auto& [x, want] : cases) EXPECT_EQ(b(x), want) << "x = " << x;
  EXPECT_EQ((bkt::splitter_buckets<int>{nullptr, 0}(42)), 0) << "no splitters: one bucket";

  const std::vector<float> f = {-1.0f, 0.0f, 0.0f, 2.5f};
  const bkt::splitter_buckets<float> fb{f.data(), 4};
  EXPECT_EQ(fb(-0.0f), 3) << "-0.0 equals the +0.0 splitters";
  EXPECT_EQ(fb(-limits<float>::infinity()), 0);
  EXPECT_EQ(fb(2.5f), 4);
  EXPECT_EQ(fb(limits<float>::quiet_NaN()), 4) << "NaN last";
  EXPECT_EQ(fb(-limits<float>::quiet_NaN()), 4);

  // Against std::upper_bound over random sorted splitters with many duplicates, every length.
  std::mt19937_64 rng(seed());
  for (int count = 0; count < 300; ++count) {
    std::vector<std::int16_t> sorted(count);
    for (auto& v : sorted) v = static_cast<std::int16_t>(static_cast<int>(rng() % 64) - 32);
    std::sort(sorted.begin(), sorted.end());
    const bkt::splitter_buckets<std::int16_t> sb{sorted.data(), count};
    for (int x = -40; x <= 40; ++x)
      ASSERT_EQ(sb(static_cast<std::int16_t>(x)),
                std::upper_bound(sorted.begin(), sorted.end(), static_cast<std::int16_t>(x)) - sorted.begin())
          << count << " splitters, x = " << x;
  }
}

}  // namespace
