// A bin_plan turned into the library's terms for one element type T: bounds as
// bkt::histogram_level<T> for even bins, edges as T for range bins, and the first and last edge
// that decide what lies outside every bin.
#pragma once

#include <cstdint>
#include <vector>

#include "bkt/histogram.hpp"
#include "binning.hpp"

namespace bkt::apps::histogram {

template <class T>
struct bin_spec {
  bool even = true;
  int bins = 1;
  bkt::histogram_level<T> lo{}, hi{};  // even bins: the bounds
  bkt::edge_precision precision = bkt::edge_precision::f64;
  std::vector<T> edges;                 // range bins only
  double first_edge = 0, last_edge = 0;  // values outside [first_edge, last_edge] (and NaN) are in no bin

  static bin_spec from(const bin_plan& plan) {
    bin_spec spec;
    spec.even = plan.library_even;
    spec.bins = static_cast<int>(plan.bins);
    spec.lo = static_cast<bkt::histogram_level<T>>(plan.lo);  // exact: integers for integer types
    spec.hi = static_cast<bkt::histogram_level<T>>(plan.hi);
    spec.precision = plan.precision;
    if (!spec.even) spec.edges.assign(plan.library_edges.begin(), plan.library_edges.end());  // values of T
    const auto& compared = spec.even ? plan.edges : plan.library_edges;
    spec.first_edge = compared.front();
    spec.last_edge = compared.back();
    return spec;
  }
};

}  // namespace bkt::apps::histogram
