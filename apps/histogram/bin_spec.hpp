// A bin_plan turned into the library's terms for one element type T: bounds as
// bkt::histogram_level<T> for even bins, edges as T for range bins.
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
  bkt::histogram_level<T> lo{}, hi{};  // even bins; for range bins the first and last edge
  std::vector<T> edges;                 // range bins only

  static bin_spec from(const bin_plan& plan) {
    bin_spec spec;
    spec.even = plan.kind == binning_kind::even;
    spec.bins = static_cast<int>(plan.bins);
    spec.lo = static_cast<bkt::histogram_level<T>>(plan.lo);  // exact: binning.cpp made them values of T
    spec.hi = static_cast<bkt::histogram_level<T>>(plan.hi);
    if (!spec.even) spec.edges.assign(plan.edges.begin(), plan.edges.end());
    return spec;
  }
};

}  // namespace bkt::apps::histogram
