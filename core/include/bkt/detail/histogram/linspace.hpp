// NumPy's linspace edge, bit for bit, on the host and the device, and the bounds even_bins uses to
// decide when an element's estimated bin needs checking against those edges.
//
// numpy.linspace(start, stop, n + 1) in the precision C of its bounds computes
// delta = stop - start, step = delta / n, edge i = i * step + start (each operation rounded once,
// never fused), the last edge = stop, then casts to the histogram's type (numpy/_core/
// function_base.py; when step underflows to zero it divides first, gh-5437: see linspace::edge).
#pragma once

#include <cmath>
#include <limits>
#include <type_traits>

#include "bkt/config.hpp"

namespace bkt::detail::histogram {

/// a * b + c with both operations rounded, as NumPy's separate ufuncs round them: nvcc would fuse
/// the two into one FMA, and so may a host compiler targeting FMA hardware.
template <class C>
BKT_HOST_DEVICE inline C multiply_add_rounded(C a, C b, C c) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<C, float>) return __fadd_rn(__fmul_rn(a, b), c);
  else return __dadd_rn(__dmul_rn(a, b), c);
#elif defined(__FP_FAST_FMA) || defined(__FP_FAST_FMAF)
  volatile C product = a * b;  // the store keeps the product rounded on its own
  return product + c;
#else
  return a * b + c;  // no FMA instruction on this target: nothing to fuse
#endif
}

/// The linspace of one histogram in its arithmetic type C: its start and step as NumPy holds them.
template <class C>
struct linspace {
  C start{}, step{};

  /// delta = stop - start and step = delta / intervals, each rounded in C. The last edge, stop
  /// itself, is the caller's to keep.
  static linspace make(C start, C stop, int intervals) {
    const C delta = stop - start;
    return linspace{start, delta / static_cast<C>(intervals)};
  }
  /// Edge i for 0 <= i < intervals, in C. (NumPy's other formula, for a step that underflows to 0,
  /// is left out: such bins are narrower than half the smallest subnormal, so their edges repeat
  /// and NumPy refuses them, as bkt::histogram_even does.)
  BKT_HOST_DEVICE C edge(int i) const { return multiply_add_rounded(static_cast<C>(i), step, start); }
};

/// Unit roundoff and half the smallest subnormal of a binary floating type.
template <class C>
constexpr double unit_roundoff() {
  return std::numeric_limits<C>::epsilon() / 2;
}
template <class C>
constexpr double underflow_error() {
  return static_cast<double>(std::numeric_limits<C>::denorm_min());
}

/// A bound, in bins, on how far any linspace edge rounded to T lies from its exact value
/// lo + i * (hi - lo) / n: rounding of delta, step, the product and the sum in C (3 u_C of the
/// width, u_C of the magnitude), the cast to T (u_T of the magnitude), and subnormal results.
/// Infinite when the width is not a positive finite number.
template <class T, class C>
double edge_error_in_bins(double lo, double hi, int bins) {
  const double width = hi - lo, magnitude = std::fmax(std::fabs(lo), std::fabs(hi));
  if (!(width > 0.0) || !std::isfinite(width)) return std::numeric_limits<double>::infinity();
  const double value_error = 3.001 * unit_roundoff<C>() * width +
                             1.001 * (unit_roundoff<C>() + unit_roundoff<T>()) * magnitude + 4 * underflow_error<C>() +
                             underflow_error<T>();
  return value_error * (static_cast<double>(bins) / width);
}

}  // namespace bkt::detail::histogram
