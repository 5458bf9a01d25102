// Histogram templates for any bin functor: bin_of(x) returns a bin in [0, bins), or `bins` for an
// element outside every bin (ids beyond bins also count as outside). Include from CUDA sources;
// plain C++ callers use bkt/histogram.hpp, whose contracts these are.
#pragma once

#include <cstdint>
#include <span>

#include "bkt/detail/arguments.hpp"
#include "bkt/detail/histogram/arguments.hpp"
#include "bkt/detail/histogram/dispatch.cuh"
#include "bkt/histogram.hpp"

namespace bkt {

/// counts[b] = elements with bin_of(x) == b; *d_outside (when not null) = the others.
template <class T, class BinFn>
void histogram(std::span<const std::type_identity_t<T>> data, std::span<std::int64_t> counts, BinFn bin_of,
               std::int64_t* d_outside, workspace& ws, cudaStream_t stream) {
  detail::expect_data("histogram", "data", data);
  detail::expect_data("histogram", "counts", counts);
  detail::histogram::check_bins("histogram", counts.size());
  detail::histogram::run<T, detail::histogram::no_weight>(data.data(), nullptr, static_cast<std::int64_t>(data.size()),
                                                          static_cast<int>(counts.size()), bin_of, counts.data(),
                                                          d_outside, ws, stream);
}

/// sums[b] = the weights of the elements with bin_of(x) == b, added in double.
template <class T, class W, class BinFn>
void histogram(std::span<const std::type_identity_t<T>> data, std::span<const std::type_identity_t<W>> weights,
               std::span<double> sums, BinFn bin_of, double* d_outside, workspace& ws, cudaStream_t stream) {
  static_assert(std::is_same_v<W, float> || std::is_same_v<W, double>, "weights are float or double");
  detail::expect_data("histogram", "data", data);
  detail::expect_data("histogram", "weights", weights);
  detail::expect_same_size("histogram", "data", data.size(), "weights", weights.size());
  detail::expect_data("histogram", "sums", sums);
  detail::histogram::check_bins("histogram", sums.size());
  detail::histogram::run<T, W>(data.data(), weights.data(), static_cast<std::int64_t>(data.size()),
                               static_cast<int>(sums.size()), bin_of, sums.data(), d_outside, ws, stream);
}

}  // namespace bkt
