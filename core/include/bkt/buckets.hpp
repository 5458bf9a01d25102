// Bucket functors: what multisplit and the histograms classify elements by. Each maps a key to a
// bucket id in [0, num_buckets); they run on the GPU and the CPU alike, so the CPU references and
// the host API's CPU path use the very same arithmetic.
//
// A user functor is any trivially copyable type with `int operator()(const Key&) const` usable on
// the device (a struct with a __device__ operator, or an extended __device__ lambda). Ids outside
// [0, num_buckets) are clamped into the last bucket, so a wrong functor cannot write out of bounds.
// A functor whose bucket costs a few integer instructions may declare
// `static constexpr bool cheap_bucket = true;`: key-only multisplit of keys up to 4 bytes then runs
// it a second time on each key as it writes the key out, instead of keeping the key's bucket id in
// shared memory (8 % faster for a u32 radix sort on an H100). It must give the same id both times.
//
// Policies for floating-point keys:
//  - bit_range_buckets looks at bits, not values: -0.0 and +0.0 differ, NaNs sort by their bits
//    (negative NaNs first, positive NaNs last), exactly as radix sort orders them.
//  - delta_buckets and splitter_buckets compare values: -0.0 equals +0.0, and NaN goes to the last
//    bucket (it compares as larger than every splitter, like a value above the range).
//  - even_bins and range_bins (histograms) send NaN and values outside [lo, hi) to the extra bucket
//    `bins`, which the histograms report as "outside".
#pragma once

#include <cstdint>
#include <type_traits>

#include "bkt/config.hpp"
#include "bkt/detail/radix_bits.hpp"

namespace bkt {

/// Bucket = bits [first_bit, first_bit + num_bits) of the key's order-preserving unsigned image
/// (bkt/detail/radix_bits.hpp): the radix digit, so multisplit with it is one pass of LSD radix sort.
/// num_bits from 0 to 16; 2^num_bits buckets.
template <class Key>
struct bit_range_buckets {
  int first_bit = 0;
  int num_bits = 8;
  static constexpr bool cheap_bucket = true;
  BKT_HOST_DEVICE int operator()(const Key& key) const {
    const auto shifted = detail::radix_bits(key) >> first_bit;
    return static_cast<int>(shifted & ((1u << num_bits) - 1u));
  }
  BKT_HOST_DEVICE int num_buckets() const { return 1 << num_bits; }
};

/// Bucket = floor((key - lo) / delta), clamped to [0, num_buckets - 1]: delta-stepping's buckets.
/// Integers divide exactly; floats compute in the key's own precision. delta must be positive (and
/// finite for floats). Keys below lo
/// go to bucket 0; NaN to the last bucket.
template <class Key>
struct delta_buckets {
  using delta_type = std::conditional_t<std::is_floating_point_v<Key>, Key, std::uint64_t>;
  Key lo{};
  delta_type delta{1};
  int buckets = 1;
  BKT_HOST_DEVICE int operator()(const Key& key) const {
    if constexpr (std::is_floating_point_v<Key>) {
      if (!(key >= lo)) return key != key ? buckets - 1 : 0;  // NaN last, below the range first
      const Key steps = (key - lo) / delta;
      return steps >= static_cast<Key>(buckets - 1) ? buckets - 1 : static_cast<int>(steps);
    } else {
      if (key < lo) return 0;
      using wide = std::conditional_t<(sizeof(Key) <= 4), std::uint32_t, std::uint64_t>;
      const wide distance = static_cast<wide>(key) - static_cast<wide>(lo);
      if (delta > static_cast<std::uint64_t>(static_cast<wide>(~wide{0}))) return 0;  // wider than any distance
      const wide steps = distance / static_cast<wide>(delta);
      return steps >= static_cast<wide>(buckets - 1) ? buckets - 1 : static_cast<int>(steps);
    }
  }
  BKT_HOST_DEVICE int num_buckets() const { return buckets; }
};

/// Bucket = the number of splitters s with s <= key (num_splitters + 1 buckets): bucket i holds
/// [splitters[i-1], splitters[i]). `splitters` is sorted ascending, in device memory for GPU calls
/// and host memory for CPU calls; the GPU searches a copy in shared memory when the splitters fit in
/// 32 KB, else in global memory.
template <class Key>
struct splitter_buckets {
  const Key* splitters = nullptr;
  int num_splitters = 0;
  BKT_HOST_DEVICE int operator()(const Key& key) const {
    // Branch-free binary search for the first splitter greater than key; NaN passes every splitter.
    int first = 0;
    for (int count = num_splitters; count > 0;) {
      const int half = count / 2;
      const bool right = !(key < splitters[first + half]);
      first = right ? first + half + 1 : first;
      count = right ? count - half - 1 : half;
    }
    return first;
  }
  BKT_HOST_DEVICE int num_buckets() const { return num_splitters + 1; }
};

/// Histogram bins of equal width over [lo, hi): bin = floor((x - lo) * bins / (hi - lo)). Needs
/// lo < hi, and for floats a finite hi - lo.
/// Returns `bins` (the "outside" bucket) for x < lo, x >= hi and NaN. Integers (up to 32 bits) are
/// binned exactly; floats compute (x - lo) * scale in the key's precision, scale = bins / (hi - lo)
/// computed once in double and rounded to the key type, then clamp the rare rounding to bins.
/// The type of histogram bounds for data of type T: T for floats, int64 for integers, so that the
/// bounds can lie beyond the data type's range (256 bins over [0, 256) for bytes). Integer bounds
/// must lie within +-2^40, with (hi - lo) * bins below 2^64.
template <class T>
using histogram_level = std::conditional_t<std::is_floating_point_v<T>, T, std::int64_t>;

template <class T>
struct even_bins {
  static_assert(sizeof(T) <= 4 || std::is_floating_point_v<T>, "even_bins: 8- to 32-bit integers, f32, f64");
  histogram_level<T> lo{};
  histogram_level<T> hi{};
  int bins = 1;
  /// For floats: bins / (hi - lo). For integers: 2^64 / range rounded up (exact division trick).
  std::conditional_t<std::is_floating_point_v<T>, T, std::uint64_t> scale{};
  /// For integers whose (x - lo) * bins stays below 2^32: 2^32 / range rounded up, else 0.
  std::uint32_t scale32 = 0;

  static even_bins make(histogram_level<T> lo, histogram_level<T> hi, int bins) {
    even_bins b{lo, hi, bins, {}, 0};
    if constexpr (std::is_floating_point_v<T>) {
      b.scale = static_cast<T>(static_cast<double>(bins) / (static_cast<double>(hi) - static_cast<double>(lo)));
    } else {
      const std::uint64_t range = static_cast<std::uint64_t>(hi - lo);
      b.scale = range > 0 ? ~std::uint64_t{0} / range + 1 : 0;
      if (range >= 2 && range * static_cast<std::uint64_t>(bins) <= 0xffffffffull)
        b.scale32 = static_cast<std::uint32_t>(0xffffffffull / range + 1);
    }
    return b;
  }

  BKT_HOST_DEVICE int operator()(const T& x) const {
    if constexpr (std::is_floating_point_v<T>) {
      if (!(x >= lo && x < hi)) return bins;
      const T position = (x - lo) * scale;
      return position >= static_cast<T>(bins) ? bins - 1 : static_cast<int>(position);
    } else {
      if (!(static_cast<std::int64_t>(x) >= lo && static_cast<std::int64_t>(x) < hi)) return bins;
      // (x - lo) * bins / range, exactly, by multiplying with the rounded-up reciprocal: the
      // quotient then overshoots by at most one, which one multiplication detects.
      const std::uint64_t range = static_cast<std::uint64_t>(hi - lo);
      const std::uint64_t numerator =
          static_cast<std::uint64_t>(static_cast<std::int64_t>(x) - lo) * static_cast<std::uint64_t>(bins);
      if (scale32 != 0) {  // 32-bit arithmetic: 8- and 16-bit data and most 32-bit ranges
        const auto narrow = static_cast<std::uint32_t>(numerator);
        std::uint32_t quotient = mul_high32(narrow, scale32);
        if (static_cast<std::uint64_t>(quotient) * range > narrow) --quotient;
        return static_cast<int>(quotient);
      }
      std::uint64_t quotient = mul_high(numerator, scale);
      if (quotient * range > numerator) --quotient;
      return static_cast<int>(quotient);
    }
  }
  BKT_HOST_DEVICE int num_buckets() const { return bins + 1; }

 private:
  BKT_HOST_DEVICE static std::uint32_t mul_high32(std::uint32_t a, std::uint32_t b) {
#if defined(__CUDA_ARCH__)
    return __umulhi(a, b);
#else
    return static_cast<std::uint32_t>((static_cast<std::uint64_t>(a) * b) >> 32);
#endif
  }
  BKT_HOST_DEVICE static std::uint64_t mul_high(std::uint64_t a, std::uint64_t b) {
#if defined(__CUDA_ARCH__)
    return __umul64hi(a, b);
#else
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64);
#endif
  }
};

/// Histogram bins between sorted edges: bin i = [edges[i], edges[i + 1]) for i < bins. Returns
/// `bins` (outside) below edges[0], at or above edges[bins], and for NaN. `edges` holds bins + 1
/// values, in device memory for GPU calls; the GPU searches a copy in shared memory.
template <class T>
struct range_bins {
  const T* edges = nullptr;
  int bins = 1;
  BKT_HOST_DEVICE int operator()(const T& x) const {
    if (!(x >= edges[0] && x < edges[bins])) return bins;
    int first = 0;  // the last edge <= x, searched among edges[0, bins)
    for (int count = bins; count > 1;) {
      const int half = count / 2;
      const bool right = !(x < edges[first + half]);
      first = right ? first + half : first;
      count = right ? count - half : half;
    }
    return first;
  }
  BKT_HOST_DEVICE int num_buckets() const { return bins + 1; }
};

}  // namespace bkt
