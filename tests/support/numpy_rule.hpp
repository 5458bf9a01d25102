// numpy.histogram's rule, written out the plainest way and independently of bkt: edges as
// numpy.linspace computes them, and a value's bin by searching those edges (searchsorted 'right',
// the last edge inclusive), which is what NumPy's estimate-and-correct loop arrives at.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

namespace bkt::test::numpy_rule {

/// numpy.linspace(lo, hi, bins + 1) for bounds of type C (double: Python floats; float:
/// np.float32 bounds), cast to the histogram's type E: delta = hi - lo, step = delta / bins,
/// edge i = i * step + lo (two roundings; volatile keeps a compiler from fusing them), last = hi.
template <class E, class C>
std::vector<E> linspace_edges(C lo, C hi, int bins) {
  const C delta = hi - lo;
  const C step = delta / static_cast<C>(bins);
  std::vector<E> edges(static_cast<std::size_t>(bins) + 1);
  for (int i = 0; i < bins; ++i) {
    // NumPy divides first when the step underflows to zero (gh-5437).
    volatile C product = step != C(0) ? static_cast<C>(i) * step : (static_cast<C>(i) / static_cast<C>(bins)) * delta;
    const C edge = product + lo;
    edges[static_cast<std::size_t>(i)] = static_cast<E>(edge);
  }
  edges.back() = static_cast<E>(hi);
  return edges;
}

/// The bin of x between ascending edges, or -1 when x is NaN or outside [edges.front(), edges.back()].
/// X and E compare as C++ compares them (an integer against double edges: exactly, below 2^53).
template <class X, class E>
int bin_of(std::span<const E> edges, const X& x) {
  if (!(x >= edges.front() && x <= edges.back())) return -1;
  const auto after = std::upper_bound(edges.begin(), edges.end() - 1, x, [](const X& v, const E& e) { return v < e; });
  return static_cast<int>(after - edges.begin()) - 1;
}

/// Counts per bin, and the number outside (NaN included).
struct histogram {
  std::vector<std::int64_t> counts;
  std::int64_t outside = 0;
};

template <class X, class E>
histogram count(std::span<const X> data, std::span<const E> edges) {
  histogram h;
  h.counts.assign(edges.size() - 1, 0);
  for (const X& x : data) {
    const int bin = bin_of(edges, x);
    if (bin < 0) ++h.outside;
    else ++h.counts[static_cast<std::size_t>(bin)];
  }
  return h;
}

}  // namespace bkt::test::numpy_rule
