// The bucket functors' policies (bkt/buckets.hpp), checked on the CPU: radix order of bit ranges,
// clamping and NaN in delta and splitter buckets, exact integer even bins against 128-bit
// arithmetic, the float even-bin formula, and range bins with duplicate edges.
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

/// floor((x - lo) * bins / (hi - lo)) in 128-bit arithmetic; `bins` outside [lo, hi).
template <class T>
int even_brute_force(T lo, T hi, int bins, T x) {
  if (!(x >= lo && x < hi)) return bins;
  const __int128 numerator = (static_cast<__int128>(x) - lo) * bins;
  return static_cast<int>(numerator / (static_cast<__int128>(hi) - lo));
}

/// Random limits and bin counts, with x drawn uniformly, near the ends, and on either side of bin edges.
template <class T>
void check_even_integers(std::mt19937_64& rng, T lo, T hi, int bins, int samples) {
  const auto b = bkt::even_bins<T>::make(lo, hi, bins);
  ASSERT_EQ(b.num_buckets(), bins + 1);
  const __int128 range = static_cast<__int128>(hi) - lo;
  const auto check = [&](__int128 wide_x) {
    if (wide_x < limits<T>::lowest() || wide_x > limits<T>::max()) return;
    const T x = static_cast<T>(wide_x);
    ASSERT_EQ(b(x), even_brute_force(lo, hi, bins, x))
        << "lo " << +lo << " hi " << +hi << " bins " << bins << " x " << +x;
  };
  for (const __int128 x : {__int128(lo), __int128(lo) - 1, __int128(lo) + 1, __int128(hi), __int128(hi) - 1,
                           __int128(limits<T>::lowest()), __int128(limits<T>::max())})
    check(x);
  for (int i = 0; i < samples && range > 0 && !::testing::Test::HasFatalFailure(); ++i) {
    check(lo + static_cast<__int128>(rng() % static_cast<std::uint64_t>(range)));
    const __int128 k = static_cast<__int128>(rng() % static_cast<std::uint64_t>(bins + 1));
    const __int128 edge = lo + (k * range + bins - 1) / bins;  // the first x of bin k
    check(edge);
    check(edge - 1);
  }
}

template <class T>
void check_even_random(std::mt19937_64& rng) {
  for (int trial = 0; trial < 20000; ++trial) {
    T lo = static_cast<T>(rng()), hi = static_cast<T>(rng());
    if (hi < lo) std::swap(lo, hi);
    const int bins = 1 + static_cast<int>(rng() % (std::uint64_t{1} << (rng() % 25)));  // 1 .. 2^24
    check_even_integers<T>(rng, lo, hi, bins, 8);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(even_bins, integers_match_128_bit_arithmetic) {
  std::mt19937_64 rng(seed());
  SCOPED_TRACE("BKT_TEST_SEED=" + std::to_string(seed()));
  check_even_random<std::int8_t>(rng);
  check_even_random<std::uint8_t>(rng);
  check_even_random<std::int16_t>(rng);
  check_even_random<std::uint16_t>(rng);
  check_even_random<std::int32_t>(rng);
  check_even_random<std::uint32_t>(rng);
  using I = limits<std::int32_t>;
  using U = limits<std::uint32_t>;
  for (const int bins : {1, 2, 3, 7, 255, 256, 1000, 65536, 65537, 16777215, 16777216}) {
    SCOPED_TRACE("bins " + std::to_string(bins));
    check_even_integers<std::int32_t>(rng, I::min(), I::max(), bins, 20000);
    check_even_integers<std::int32_t>(rng, I::min(), 0, bins, 2000);
    check_even_integers<std::int32_t>(rng, -1, I::max(), bins, 2000);
    check_even_integers<std::uint32_t>(rng, 0, U::max(), bins, 20000);
    check_even_integers<std::uint32_t>(rng, U::max() - 1, U::max(), bins, 10);
    check_even_integers<std::uint32_t>(rng, 1, 4, bins, 10);
    check_even_integers<std::int8_t>(rng, -128, 127, bins, 2000);
    check_even_integers<std::uint16_t>(rng, 0, 65535, bins, 2000);
  }
  EXPECT_EQ(bkt::even_bins<std::uint32_t>::make(0, U::max(), 7)(U::max()), 7) << "hi itself is outside";
  EXPECT_EQ(bkt::even_bins<std::int32_t>::make(I::min(), I::max(), 2)(I::min()), 0);
  EXPECT_EQ(bkt::even_bins<std::int32_t>::make(I::min(), I::max(), 2)(-1), 0);
  EXPECT_EQ(bkt::even_bins<std::int32_t>::make(I::min(), I::max(), 2)(0), 1);
  EXPECT_EQ(bkt::even_bins<std::int32_t>::make(5, 5, 3)(5), 3) << "an empty range holds nothing";
}

/// The documented float rule: (x - lo) * scale in T, scale = T(bins / (hi - lo) in double),
/// rounding up to bins clamped to bins - 1; NaN and values outside [lo, hi) go to `bins`.
template <class T>
int even_float_formula(T lo, T hi, int bins, T x) {
  if (!(x >= lo && x < hi)) return bins;
  const T scale = static_cast<T>(static_cast<double>(bins) / (static_cast<double>(hi) - static_cast<double>(lo)));
  const T position = (x - lo) * scale;
  return position >= static_cast<T>(bins) ? bins - 1 : static_cast<int>(position);
}

template <class T>
void check_even_floats() {
  using L = limits<T>;
  std::mt19937_64 rng(seed());
  for (int trial = 0; trial < 2000; ++trial) {
    T lo = static_cast<T>(std::uniform_real_distribution<double>(-1e6, 1e6)(rng));
    T hi = static_cast<T>(std::uniform_real_distribution<double>(-1e6, 1e6)(rng));
    if (hi < lo) std::swap(lo, hi);
    if (!(lo < hi)) continue;
    const int bins = 1 + static_cast<int>(rng() % 100000);
    const auto b = bkt::even_bins<T>::make(lo, hi, bins);
    std::vector<T> xs = {lo, hi, std::nextafter(hi, lo), std::nextafter(lo, hi), std::nextafter(lo, -L::infinity()),
                         L::quiet_NaN(), -L::quiet_NaN(), L::infinity(), -L::infinity(), T(0), -T(0)};
    for (int i = 0; i < 200; ++i) xs.push_back(static_cast<T>(std::uniform_real_distribution<double>(lo, hi)(rng)));
    for (const T x : xs) {
      const int bin = b(x);
      ASSERT_EQ(bin, even_float_formula(lo, hi, bins, x)) << "lo " << lo << " hi " << hi << " bins " << bins << " x " << x;
      ASSERT_EQ(bin == bins, !(x >= lo && x < hi)) << "x " << x;
    }
    std::erase_if(xs, [](T x) { return x != x; });
    std::sort(xs.begin(), xs.end());
    int previous = 0;
    for (const T x : xs) {
      if (!(x >= lo && x < hi)) continue;
      ASSERT_GE(b(x), previous) << "bins must not decrease as x grows, x " << x;
      previous = b(x);
    }
  }
  const auto unit = bkt::even_bins<T>::make(T(0), T(100), 100);  // scale exactly 1
  for (int x = 0; x < 100; ++x) EXPECT_EQ(unit(static_cast<T>(x)), x);
  EXPECT_EQ(unit(-T(0)), 0) << "-0.0 >= lo = 0";
  EXPECT_EQ(unit(T(100)), 100);
  EXPECT_EQ(unit(L::quiet_NaN()), 100);
  EXPECT_EQ(unit(std::nextafter(T(100), T(0))), 99);
  EXPECT_EQ(bkt::even_bins<T>::make(T(0), T(1), 3)(std::nextafter(T(1), T(0))), 2) << "the last value below hi";
}

TEST(even_bins, floats_follow_the_documented_formula) {
  check_even_floats<float>();
  check_even_floats<double>();
}

TEST(range_bins, edges_duplicates_and_outside) {
  const std::vector<double> edges = {0, 10, 10, 20, 50};
  const bkt::range_bins<double> b{edges.data(), 4};
  EXPECT_EQ(b.num_buckets(), 5);
  const std::vector<std::pair<double, int>> cases = {{-1, 4}, {-0.0, 0}, {0, 0}, {9.999, 0}, {10, 2}, {19, 2},
                                                     {20, 3}, {49.9, 3}, {50, 4}, {1e300, 4}};
  for (const auto& [x, want] : cases) EXPECT_EQ(b(x), want) << "x = " << x;
  EXPECT_EQ(b(limits<double>::quiet_NaN()), 4) << "NaN outside";
  EXPECT_EQ(b(-limits<double>::infinity()), 4);
  const std::vector<double> single = {1, 2};
  EXPECT_EQ((bkt::range_bins<double>{single.data(), 1}(1.5)), 0);
  EXPECT_EQ((bkt::range_bins<double>{single.data(), 1}(2.0)), 1) << "the last edge is outside";

  std::mt19937_64 rng(seed());
  for (int bins = 1; bins < 300; ++bins) {
    std::vector<std::int32_t> e(static_cast<std::size_t>(bins) + 1);
    for (auto& v : e) v = static_cast<std::int32_t>(rng() % 200) - 100;
    std::sort(e.begin(), e.end());
    const bkt::range_bins<std::int32_t> rb{e.data(), bins};
    for (std::int32_t x = -110; x <= 110; ++x) {
      const int want = x < e.front() || x >= e.back()
                           ? bins
                           : static_cast<int>(std::upper_bound(e.begin(), e.end() - 1, x) - e.begin()) - 1;
      ASSERT_EQ(rb(x), want) << bins << " bins, x = " << x;
    }
  }
}

}  // namespace
