#include "generators.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>

namespace bkt::test {

std::uint64_t seed() {
  if (const char* text = std::getenv("BKT_TEST_SEED")) return std::strtoull(text, nullptr, 10);
  static const std::uint64_t fresh = std::random_device{}() * 0x9e3779b97f4a7c15ull + std::random_device{}();
  return fresh;
}

bool quick_mode() { return std::getenv("BKT_TEST_MAX_SIZE") != nullptr; }

std::vector<std::int64_t> sizes() {
  std::vector<std::int64_t> all = {0,    1,     31,    32,    33,        1023,           1024,
                                   1025, 4095,  4096,  4097,  16384 + 3, (1 << 20) + 7, 3 * (1 << 20) + 12345};
  // Sanitizer runs: the edges that change a kernel's path (empty, one element, a partial warp,
  // a partial tile, several tiles), not every size.
  if (quick_mode()) all = {0, 1, 33, 1025, 4097, 16384 + 3};
  std::int64_t cap = std::numeric_limits<std::int64_t>::max();
  if (const char* text = std::getenv("BKT_TEST_MAX_SIZE")) cap = std::strtoll(text, nullptr, 10);
  std::erase_if(all, [cap](std::int64_t n) { return n > cap; });
  return all;
}

std::vector<std::int64_t> loop_sizes() {
  if (!quick_mode()) return sizes();
  std::vector<std::int64_t> few = sizes();
  std::erase_if(few, [](std::int64_t n) { return n != 33 && n != 4097; });
  return few;
}

namespace {

template <class T>
T from_double(double x) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(x);
  } else {
    const double lo = static_cast<double>(std::numeric_limits<T>::lowest());
    const double hi = static_cast<double>(std::numeric_limits<T>::max());
    return static_cast<T>(std::clamp(std::round(x), lo, hi));
  }
}

/// A spread of values across T's range (floats: [-1e6, 1e6]; integers: the whole range).
template <class T>
T uniform_value(std::mt19937_64& rng) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(std::uniform_real_distribution<double>(-1e6, 1e6)(rng));
  } else {
    return static_cast<T>(rng());
  }
}

template <class T>
std::vector<T> fill(std::int64_t n, std::uint64_t seed, auto&& value_at) {
  std::mt19937_64 rng(seed);
  std::vector<T> out(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) out[static_cast<std::size_t>(i)] = value_at(i, rng);
  return out;
}

template <class T>
std::vector<T> bit_pattern_values() {
  using L = std::numeric_limits<T>;
  std::vector<T> v = {T(0), L::max(), L::lowest(), L::min(), T(1)};
  if constexpr (std::is_floating_point_v<T>) {
    v.insert(v.end(), {-T(0), L::infinity(), -L::infinity(), L::quiet_NaN(), -L::quiet_NaN(), L::signaling_NaN(),
                       L::denorm_min(), -L::denorm_min(), L::min() / T(2), -L::min(), T(-1)});
  } else if constexpr (std::is_signed_v<T>) {
    v.push_back(T(-1));
  }
  return v;
}

/// Height of the organ pipe's peak above its base: as far as T reaches (at most 1e9; floats 1e6).
template <class T>
double organ_pipe_height() {
  if constexpr (std::is_floating_point_v<T>) return 1e6;
  else return std::min(1e9, double(std::numeric_limits<T>::max()) - double(std::numeric_limits<T>::lowest()));
}

/// A monotone map of u in [0, 1] onto a huge stretch of T: integers their whole range; floats
/// -10^E ... -10^-E, +10^-E ... +10^E on a log scale (E = 30 for float, 300 for double).
template <class T>
T wide_value(double u) {
  if constexpr (std::is_floating_point_v<T>) {
    const double decades = sizeof(T) == 4 ? 30.0 : 300.0;
    const double t = 2.0 * u - 1.0;
    const double magnitude = std::pow(10.0, decades * (2.0 * std::abs(t) - 1.0));
    return static_cast<T>(t < 0 ? -magnitude : magnitude);
  } else {
    const double lo = double(std::numeric_limits<T>::lowest()), hi = double(std::numeric_limits<T>::max());
    return from_double<T>(lo + u * (hi - lo));
  }
}

/// One element of sampling_adversary: 25% exactly the median value wide_value(0.5); 60% in four
/// tight clusters of 8 adjacent values at 0.1, 0.3, 0.7 and 0.9 of the wide range; 15% spread
/// thinly over all of it (half below the median). The median's run of duplicates spans ranks
/// ~37%..62%, so random splitters land in a cluster or on the median value, and buckets between
/// splitters are either nearly empty or hold one cluster that no splitter can cut.
template <class T>
T sampling_adversary_value(std::mt19937_64& rng) {
  static constexpr double centres[4] = {0.1, 0.3, 0.7, 0.9};
  const std::uint64_t pick = rng() % 100;
  if (pick < 25) return wide_value<T>(0.5);
  if (pick < 85) {
    const T centre = wide_value<T>(centres[pick % 4]);
    const int offset = static_cast<int>(rng() % 8);
    if constexpr (std::is_floating_point_v<T>)
      return centre + centre * (std::numeric_limits<T>::epsilon() * static_cast<T>(offset));  // offset ulps apart
    else
      return static_cast<T>(centre + offset);
  }
  if constexpr (std::is_floating_point_v<T>) return wide_value<T>(std::uniform_real_distribution<double>(0, 1)(rng));
  else return uniform_value<T>(rng);
}

}  // namespace

template <class T>
std::vector<generator<T>> generators() {
  std::vector<generator<T>> g;
  g.push_back({"uniform", [](std::int64_t n, std::uint64_t s) {
                 return fill<T>(n, s, [](std::int64_t, auto& rng) { return uniform_value<T>(rng); });
               }});
  g.push_back({"normal", [](std::int64_t n, std::uint64_t s) {
                 const double scale = std::is_floating_point_v<T> ? 1.0 : std::min(1e3, double(std::numeric_limits<T>::max()) / 8);
                 std::normal_distribution<double> normal(0.0, scale);
                 return fill<T>(n, s, [&](std::int64_t, auto& rng) { return from_double<T>(normal(rng)); });
               }});
  g.push_back({"all_equal", [](std::int64_t n, std::uint64_t s) {
                 std::mt19937_64 rng(s);
                 const T value = uniform_value<T>(rng);
                 return std::vector<T>(static_cast<std::size_t>(n), value);
               }});
  g.push_back({"two_values", [](std::int64_t n, std::uint64_t s) {
                 std::mt19937_64 pick(s);
                 const T a = uniform_value<T>(pick), b = uniform_value<T>(pick);
                 return fill<T>(n, s + 1, [&](std::int64_t, auto& rng) { return (rng() & 1) ? a : b; });
               }});
  g.push_back({"sixteen_distinct", [](std::int64_t n, std::uint64_t s) {
                 std::mt19937_64 pick(s);
                 std::vector<T> values(16);
                 for (T& v : values) v = uniform_value<T>(pick);
                 return fill<T>(n, s + 1, [&](std::int64_t, auto& rng) { return values[rng() % 16]; });
               }});
  g.push_back({"sorted", [](std::int64_t n, std::uint64_t s) {
                 auto v = fill<T>(n, s, [](std::int64_t, auto& rng) { return uniform_value<T>(rng); });
                 std::sort(v.begin(), v.end());
                 return v;
               }});
  g.push_back({"reverse_sorted", [](std::int64_t n, std::uint64_t s) {
                 auto v = fill<T>(n, s, [](std::int64_t, auto& rng) { return uniform_value<T>(rng); });
                 std::sort(v.begin(), v.end(), [](T a, T b) { return b < a; });
                 return v;
               }});
  g.push_back({"sawtooth", [](std::int64_t n, std::uint64_t s) {
                 const std::int64_t period = 97 + static_cast<std::int64_t>(s % 1000);
                 return fill<T>(n, s, [&](std::int64_t i, auto&) { return from_double<T>(double(i % period)); });
               }});
  g.push_back({"zipf", [](std::int64_t n, std::uint64_t s) {
                 // Rank r in 1..1000 with probability ~ 1/r^1.2; value = r (a few values dominate).
                 std::vector<double> cdf(1000);
                 double total = 0;
                 for (int r = 1; r <= 1000; ++r) cdf[r - 1] = total += std::pow(r, -1.2);
                 return fill<T>(n, s, [&](std::int64_t, auto& rng) {
                   const double u = std::uniform_real_distribution<double>(0, total)(rng);
                   const auto rank = std::lower_bound(cdf.begin(), cdf.end(), u) - cdf.begin() + 1;
                   return from_double<T>(double(rank));
                 });
               }});
  g.push_back({"clustered", [](std::int64_t n, std::uint64_t s) {
                 // Runs of near-equal values around a few centres: long stretches kept or dropped together.
                 std::mt19937_64 pick(s);
                 std::vector<T> centres(8);
                 for (T& c : centres) c = uniform_value<T>(pick);
                 T current = centres[0];
                 return fill<T>(n, s + 1, [&](std::int64_t i, auto& rng) {
                   if (i % 5000 == 0) current = centres[rng() % 8];
                   return current;
                 });
               }});
  g.push_back({"bit_patterns", [](std::int64_t n, std::uint64_t s) {
                 const auto values = bit_pattern_values<T>();
                 return fill<T>(n, s, [&](std::int64_t, auto& rng) { return values[rng() % values.size()]; });
               }});
  g.push_back({"organ_pipe", [](std::int64_t n, std::uint64_t) {
                 // 0, 1, ..., peak, ..., 1, 0 (steps shrunk when T cannot hold the peak), from a base
                 // below zero for signed types: every value but the peak twice, far apart.
                 const double height = organ_pipe_height<T>();
                 const double step = std::min(1.0, height / double(std::max<std::int64_t>(n / 2, 1)));
                 const double base = std::is_signed_v<T> ? -height / 2 : 0.0;
                 return fill<T>(n, 0, [&](std::int64_t i, auto&) {
                   return from_double<T>(base + step * double(std::min(i, n - 1 - i)));
                 });
               }});
  g.push_back({"sampling_adversary", [](std::int64_t n, std::uint64_t s) {
                 return fill<T>(n, s, [](std::int64_t, auto& rng) { return sampling_adversary_value<T>(rng); });
               }});
  return g;
}

std::vector<std::uint8_t> random_flags(std::int64_t n, int percent_kept, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint8_t> flags(static_cast<std::size_t>(n));
  // Non-zero values other than 1 too: any non-zero flag means kept.
  for (auto& f : flags) f = static_cast<int>(rng() % 100) < percent_kept ? static_cast<std::uint8_t>(1 + rng() % 255) : 0;
  return flags;
}

template <class T>
std::vector<generator<T>> sweep_generators() {
  std::vector<generator<T>> all = generators<T>();
  if (quick_mode()) {
    std::erase_if(all, [](const generator<T>& g) {
      return g.name != "uniform" && g.name != "all_equal" && g.name != "zipf" && g.name != "bit_patterns";
    });
  }
  return all;
}

#define BKT_INSTANTIATE(T)                                   \
  template std::vector<generator<T>> generators<T>();        \
  template std::vector<generator<T>> sweep_generators<T>();
BKT_INSTANTIATE(std::int8_t)
BKT_INSTANTIATE(std::uint8_t)
BKT_INSTANTIATE(std::int16_t)
BKT_INSTANTIATE(std::uint16_t)
BKT_INSTANTIATE(std::int32_t)
BKT_INSTANTIATE(std::uint32_t)
BKT_INSTANTIATE(std::int64_t)
BKT_INSTANTIATE(std::uint64_t)
BKT_INSTANTIATE(float)
BKT_INSTANTIATE(double)
#undef BKT_INSTANTIATE
template std::vector<generator<__half>> sweep_generators<__half>();
template std::vector<generator<__nv_bfloat16>> sweep_generators<__nv_bfloat16>();

}  // namespace bkt::test
