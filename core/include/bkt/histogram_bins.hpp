// The histograms' bin functors: even_bins (equal widths) and range_bins (edges of your own). They
// follow NumPy 2's numpy.histogram exactly, run on the GPU and the CPU alike, and return `bins` (the
// "outside" bucket) for NaN and for values below the first edge or above the last.
//
// The rule (numpy/lib/_histograms_impl.py): bin i holds edges[i] <= x < edges[i + 1], except the
// last bin, which also holds x == edges[bins]. For even bins the edges are
// numpy.linspace(lo, hi, bins + 1) in NumPy's arithmetic (bkt/detail/histogram/linspace.hpp): for
// float data in double or in the data's type (bkt::edge_precision), for integer data in double, as
// NumPy's bin type for integers is float64. Each element's bin is first estimated arithmetically;
// where the estimate lies within its proven rounding error of a bin boundary it is corrected
// against the two edges around it, as NumPy corrects it (elsewhere no edge can be on the other
// side). The correction repeats until those edges hold the element, so the result is always the
// rule above. (NumPy corrects once in each direction, which reaches the same bin unless its
// estimate is off by two bins or more: only with bins a few ulps wide.) Edges are computed in
// registers, bit for bit as linspace computes them, so the correction reads no table. Where every
// edge is exact (a power-of-two step, see float_even_bins::exact_edges) the estimate is exact and
// never corrected.
//
// NaN: NumPy raises on NaN when it takes the range from the data and otherwise leaves it out; here
// NaN is always left out, counted in "outside" with the values beyond the edges. -0.0 equals +0.0.
//
// CUB's DeviceHistogram differs: HistogramEven bins floats by (x - lo) * (bins / (hi - lo)) in the
// level type, without correcting against edges, so values on or next to an edge may land one bin
// off (integers it divides exactly, which misses NumPy's edges where they sit an ulp off an
// integer); and both HistogramEven and HistogramRange count the upper end as outside ([lo, hi)).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <type_traits>

#include "bkt/config.hpp"
#include "bkt/detail/histogram/linspace.hpp"

namespace bkt {

/// The type of even bins' bounds for data of type T: double for floats (like NumPy's Python floats),
/// int64 for integers, so that bounds can lie beyond the data type's range (256 bins over [0, 256]
/// for bytes). Integer bounds must lie within +-2^40, with (hi - lo) * bins below 2^64.
template <class T>
using histogram_level = std::conditional_t<std::is_floating_point_v<T>, double, std::int64_t>;

/// Where even bins of float data compute numpy.linspace, which works in the precision of its bounds:
enum class edge_precision {
  /// In double, then rounded to the data's type: numpy.histogram(a, bins, range=(lo, hi)) with lo
  /// and hi Python floats.
  f64,
  /// In the data's own type, lo and hi rounded to it first: range=(np.float32(lo), np.float32(hi)),
  /// and numpy.histogram(a, bins) without a range, where NumPy's bounds are a.min() and a.max().
  data,
};

namespace detail::histogram {

/// NumPy's correction, repeated until edge(bin) <= x < edge(bin + 1) (the last bin closed): from
/// an estimate within a few bins of the answer, for x inside [edge(0), edge(bins)].
template <class Bins, class X>
BKT_HOST_DEVICE int walk_to_bin(const Bins& b, const X& x, int bin) {
  while (bin > 0 && x < b.edge(bin)) --bin;
  while (bin < b.bins - 1 && !(x < b.edge(bin + 1))) ++bin;
  return bin;
}

/// The last edge <= x among edges [0, bins), by binary search: for x inside [edge(0), edge(bins)].
template <class Bins, class X>
BKT_HOST_DEVICE int search_bin(const Bins& b, const X& x) {
  int first = 0;
  for (int count = b.bins; count > 1;) {
    const int half = count / 2;
    const bool right = !(x < b.edge(first + half));
    first = right ? first + half : first;
    count = right ? count - half : half;
  }
  return first;
}

/// Even bins of float data (see even_bins).
template <class T>
struct float_even_bins {
  double lo{}, hi{};  // the bounds as given
  int bins = 1;
  T first{}, last{};          // edges 0 and `bins`, in T
  T scale{};                  // bins / (last - first): the estimate; 0 when that is not finite
  T trusted_radius{};         // the estimate decides when its fraction lies within this of 1/2 (<= 0: never)
  bool narrow_edges = false;  // f32 data with edge_precision::data: linspace in float
  linspace<double> wide;
  linspace<float> narrow;

  /// Edge i (0 <= i <= bins) as NumPy computes it, in T.
  BKT_HOST_DEVICE T edge(int i) const {
    if (i >= bins) return last;
    if constexpr (std::is_same_v<T, float>)
      if (narrow_edges) return narrow.edge(i);
    return static_cast<T>(wide.edge(i));
  }

  /// An estimate of x's bin, within [0, bins], and whether it is x's bin without an edge computed:
  /// for x outside the edges (bin `bins`), and where (x - first) * scale errs by less than its
  /// distance to the nearest boundary (nearly every element; every one when the edges are exact,
  /// see make). Otherwise decided() decides. Branch-free, so that a counting loop keeps the rare
  /// correction out of its way.
  BKT_HOST_DEVICE bool quick(const T& x, int& bin) const {
    const bool inside = x >= first && x <= last;  // NaN fails both
    const T position = offset_rounded_down(x) * scale;
    int whole;
    const T off_centre = magnitude(position - centre_of(position, whole));
    bin = !inside ? bins : min_of(whole, bins - 1);  // x == last is in the last bin
    return !inside || off_centre <= trusted_radius;
  }

  BKT_HOST_DEVICE int operator()(const T& x) const {
    int bin;
    return quick(x, bin) ? bin : decided(x);
  }

  /// The bin of an x that quick was unsure of (one inside the edges), against the edges.
  BKT_HOST_DEVICE int decided(const T& x) const {
    const T position = (x - first) * scale;
    return corrected(x, position < static_cast<T>(bins) ? static_cast<int>(position) : bins - 1);
  }

  /// The bin of x from an estimate that may be a few bins off (or none at all, scale 0).
  BKT_HOST_DEVICE int corrected(T x, int bin) const {
    return scale != T(0) ? walk_to_bin(*this, x, bin) : search_bin(*this, x);
  }

  static float_even_bins make(double lo, double hi, int bins, edge_precision precision) {
    float_even_bins b;
    b.lo = lo;
    b.hi = hi;
    b.bins = bins;
    b.narrow_edges = std::is_same_v<T, float> && precision == edge_precision::data;
    double start = lo, stop = hi, edge_error = 0.0, step = 0.0;
    if (b.narrow_edges) {
      start = static_cast<float>(lo);
      stop = static_cast<float>(hi);
      b.narrow = linspace<float>::make(static_cast<float>(lo), static_cast<float>(hi), bins);
      edge_error = edge_error_in_bins<T, float>(start, stop, bins);
      step = b.narrow.step;
    } else {
      b.wide = linspace<double>::make(lo, hi, bins);
      edge_error = edge_error_in_bins<T, double>(start, stop, bins);
      step = b.wide.step;
    }
    b.first = static_cast<T>(start);
    b.last = static_cast<T>(stop);
    const double width = static_cast<double>(b.last) - static_cast<double>(b.first);
    const double scale = static_cast<double>(bins) / width;
    b.scale = std::isfinite(static_cast<T>(scale)) && scale > 0.0 ? static_cast<T>(scale) : T(0);
    if (b.scale == T(0) || bins > quick_bins) {
      b.trusted_radius = T(-1);
    } else if (exact_edges(b, start, stop, step)) {
      b.trusted_radius = std::numeric_limits<T>::infinity();
    } else {
      // The estimate (x - first) * scale errs by up to 3 u_T in the difference (rounded down) and
      // u_T in each of the product and scale, relative to a position of at most `bins`; and it
      // measures from first and last where the exact edges measure from lo and hi, which they
      // round (u_T of the magnitude each).
      const double u = unit_roundoff<T>(), magnitude = std::fmax(std::fabs(start), std::fabs(stop));
      const double estimate_error =
          5.001 * u * bins + (3.001 * u * magnitude + 2 * underflow_error<T>()) * (bins / width) + underflow_error<T>();
      const double margin = 2 * (estimate_error + edge_error);  // twice the proven bound
      b.trusted_radius = margin < 0.5 ? radius_below(0.5 - margin) : T(-1);
    }
    return b;
  }

 private:
  BKT_HOST_DEVICE static T magnitude(T x) {
#if defined(__CUDA_ARCH__)
    return fabs(x);  // an operand modifier, not an instruction
#else
    return std::fabs(x);
#endif
  }
  BKT_HOST_DEVICE static int min_of(int a, int b) {
#if defined(__CUDA_ARCH__)
    return min(a, b);  // one instruction, where a comparison and a choice take two
#else
    return a < b ? a : b;
#endif
  }

  /// x - first rounded toward -inf (at most 2 u_T low), so that on exact edges an x below edge i
  /// never rounds onto i * step. One instruction on the device; on the host a nearest difference
  /// that landed above x - first steps down an ulp (at most 3 u_T low), by a test that is exact
  /// where it matters: for a difference on the grid.
  BKT_HOST_DEVICE T offset_rounded_down(T x) const {
#if defined(__CUDA_ARCH__)
    if constexpr (std::is_same_v<T, float>)
      return __fsub_rd(x, first);
    else
      return __dsub_rd(x, first);
#else
    const T offset = x - first;
    return offset + first > x ? std::nextafter(offset, -std::numeric_limits<T>::infinity()) : offset;
#endif
  }

  // Above this many bins the estimate is never trusted (the float bound alone passes a margin of
  // 1/4 at about 2^20 bins); below it positions stay under 2^22, where centre_of is exact.
  static constexpr int quick_bins = 1 << 21;

  /// floor(position) + 1/2 (exact below 2^22), and floor(position) in `whole`. On the device by
  /// one addition rounded toward zero on the float pipe, where a conversion to an integer and back
  /// would take two slots of the narrower conversion pipe.
  BKT_HOST_DEVICE static T centre_of(T position, int& whole) {
#if defined(__CUDA_ARCH__)
    if constexpr (std::is_same_v<T, float>) {
      const float shifted = __fadd_rz(position, 0x1p23f);  // 2^23 + floor(position)
      whole = __float_as_int(shifted) - __float_as_int(0x1p23f);
      return shifted - (0x1p23f - 0.5f);
    } else {
      const double shifted = __dadd_rz(position, 0x1p52);
      whole = static_cast<int>(__double_as_longlong(shifted) - __double_as_longlong(0x1p52));
      return shifted - (0x1p52 - 0.5);
    }
#else
    const T below = std::floor(position);
    whole = below >= T(0) && below < T(1 << 22) ? static_cast<int>(below) : 0;  // others are never trusted
    return below + T(0.5);
#endif
  }

  /// Whether the estimate is exact for every x inside the edges: the step a power of two and every
  /// edge first + i * step exact in T (all are multiples of the largest power of two dividing
  /// first and the step, the grid's unit: exact below 2^digits units), so that linspace computes
  /// them exactly, in C and in T, and scale = 1 / step. Then x - first rounded down stays on its
  /// side of every i * step and the product by scale rounds nowhere that matters (a subnormal
  /// product lies far below 1). Bins of [0, 1] or [-1, 1] in 2^k, [-128, 128] or [-0.5, 255.5] in
  /// 256, [0, 100] in 100.
  static bool exact_edges(const float_even_bins& b, double start, double stop, double step) {
    int exponent;
    if (!(step > 0.0) || std::frexp(step, &exponent) != 0.5) return false;
    if (start + step * b.bins != stop || static_cast<double>(b.first) != start ||
        static_cast<double>(b.last) != stop || static_cast<double>(b.scale) * step != 1.0 ||
        static_cast<double>(static_cast<T>(step)) != step)
      return false;
    double unit = step;
    while (unit > 0.0 && std::fmod(start, unit) != 0.0) unit /= 2;
    const double grid = std::ldexp(unit, std::numeric_limits<T>::digits);
    return unit >= static_cast<double>(std::numeric_limits<T>::denorm_min()) &&
           std::fmax(std::fabs(start), std::fabs(stop)) <= grid;
  }

  /// The largest T whose values within half an ulp above stay below `bound` (0 < bound <= 1/2), so
  /// that a rounded distance within it means the exact distance is below `bound` too.
  static T radius_below(double bound) {
    T r = static_cast<T>(bound);
    if (static_cast<double>(r) >= bound) r = std::nextafter(r, T(0));
    return std::nextafter(r, T(0));
  }
};

/// Even bins of 8- to 32-bit integer data (see even_bins).
template <class T>
struct integer_even_bins {
  std::int64_t lo{}, hi{};
  int bins = 1;
  std::uint64_t range = 1;   // hi - lo
  std::uint64_t scale{};     // 2^64 / range rounded up (exact division by multiplication)
  std::uint32_t scale32 = 0;  // 2^32 / range rounded up when (x - lo) * bins stays below 2^32, else 0
  std::int64_t slack = -1;   // remainders within this of an exact edge are checked; -1: never
  linspace<double> wide;

  /// Edge i (0 <= i <= bins) as NumPy computes it, in double.
  BKT_HOST_DEVICE double edge(int i) const { return i >= bins ? static_cast<double>(hi) : wide.edge(i); }

  BKT_HOST_DEVICE int operator()(const T& x) const {
    const auto value = static_cast<std::int64_t>(x);
    if (!(value >= lo && value <= hi)) return bins;
    if (value == hi) return bins - 1;
    // floor((x - lo) * bins / range) and its remainder, exactly: multiplying by the rounded-up
    // reciprocal overshoots the quotient by at most one, which one multiplication detects.
    const std::uint64_t numerator = static_cast<std::uint64_t>(value - lo) * static_cast<std::uint64_t>(bins);
    std::uint64_t quotient;
    if (scale32 != 0) {  // 32-bit arithmetic: 8- and 16-bit data and most 32-bit ranges
      const auto narrow = static_cast<std::uint32_t>(numerator);
      quotient = mul_high32(narrow, scale32);
      if (quotient * range > narrow) --quotient;
    } else {
      quotient = mul_high(numerator, scale);
      if (quotient * range > numerator) --quotient;
    }
    // x lies remainder / bins above the exact edge `quotient`. NumPy's edges are doubles that may
    // miss the exact edge by an ulp or so; only an element within that of an edge can be affected.
    const auto remainder = static_cast<std::int64_t>(numerator - quotient * range);
    if (remainder > slack && static_cast<std::int64_t>(range) - remainder > slack) return static_cast<int>(quotient);
    return corrected(static_cast<double>(value), static_cast<int>(quotient));
  }

  /// The bin of x from the exact quotient, against NumPy's edges.
  BKT_HOST_DEVICE int corrected(double x, int bin) const { return walk_to_bin(*this, x, bin); }

  static integer_even_bins make(std::int64_t lo, std::int64_t hi, int bins) {
    integer_even_bins b;
    b.lo = lo;
    b.hi = hi;
    b.bins = bins;
    if (!(lo < hi)) return b;  // the caller checks; an empty range must not divide by zero here
    b.range = static_cast<std::uint64_t>(hi - lo);
    b.scale = ~std::uint64_t{0} / b.range + 1;
    if (b.range >= 2 && b.range * static_cast<std::uint64_t>(bins) <= 0xffffffffull)
      b.scale32 = static_cast<std::uint32_t>(0xffffffffull / b.range + 1);
    b.wide = linspace<double>::make(static_cast<double>(lo), static_cast<double>(hi), bins);
    // NumPy's edges are exact when the step range / bins is a binary fraction (bins / gcd a power
    // of two) fine enough that every multiple of it up to the magnitude fits in 53 bits.
    const auto reduced = static_cast<std::uint64_t>(bins) / std::gcd(b.range, static_cast<std::uint64_t>(bins));
    const auto magnitude = static_cast<unsigned __int128>(lo < 0 ? -lo : lo) + static_cast<unsigned __int128>(hi < 0 ? -hi : hi);
    const bool exact = (reduced & (reduced - 1)) == 0 && magnitude * reduced < (static_cast<unsigned __int128>(1) << 53);
    if (!exact) {
      const double error = edge_error_in_bins<double, double>(static_cast<double>(lo), static_cast<double>(hi), bins);
      b.slack = static_cast<std::int64_t>(2 * error * static_cast<double>(b.range)) + 1;  // error in remainder units
    }
    return b;
  }

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

}  // namespace detail::histogram

/// `bins` bins of equal width over [lo, hi], numpy.histogram's rule (see the top of this file):
/// edges = numpy.linspace(lo, hi, bins + 1), bin i = [edge(i), edge(i + 1)), the last bin closed;
/// `bins` for NaN and values outside [edge(0), edge(bins)]. Float data: edges in double rounded to
/// T, or in T (edge_precision); the estimate in T. Integer data (8 to 32 bits): the bin by exact
/// integer division, checked against NumPy's double edges when it lies within their rounding of an
/// edge. NumPy bins integers against float64 edges, which can sit an ulp above an integer: over
/// [0, 14] in 50 bins edge 25 is 7.000000000000001, so 7 goes to bin 24 (exact division says 25);
/// here too. Use make(); bkt::histogram_even checks the arguments (lo < hi, finite, ascending edges).
template <class T>
struct even_bins
    : std::conditional_t<std::is_floating_point_v<T>, detail::histogram::float_even_bins<T>,
                         detail::histogram::integer_even_bins<T>> {
  static_assert(sizeof(T) <= 4 || std::is_floating_point_v<T>, "even_bins: 8- to 32-bit integers, f32, f64");
  using base = std::conditional_t<std::is_floating_point_v<T>, detail::histogram::float_even_bins<T>,
                                  detail::histogram::integer_even_bins<T>>;

  static even_bins make(histogram_level<T> lo, histogram_level<T> hi, int bins,
                        edge_precision precision = edge_precision::f64) {
    even_bins b;
    if constexpr (std::is_floating_point_v<T>) static_cast<base&>(b) = base::make(lo, hi, bins, precision);
    else static_cast<base&>(b) = base::make(lo, hi, bins);
    return b;
  }
  BKT_HOST_DEVICE int num_buckets() const { return this->bins + 1; }
};

/// Bins between sorted edges, numpy.histogram(a, bins=edges): bin i = [edges[i], edges[i + 1]) for
/// i < bins - 1, the last bin [edges[bins - 1], edges[bins]] closed. Returns `bins` (outside) below
/// edges[0], above edges[bins], and for NaN. Equal edges make empty bins (a value equal to them
/// goes to the bin after them). `edges` holds bins + 1 values, in device memory for GPU calls; the
/// GPU searches a copy in shared memory.
template <class T>
struct range_bins {
  const T* edges = nullptr;
  int bins = 1;
  BKT_HOST_DEVICE int operator()(const T& x) const {
    if (!(x >= edges[0] && x <= edges[bins])) return bins;
    int first = 0;  // the last edge <= x among edges[0, bins): bins - 1 for x == edges[bins]
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
