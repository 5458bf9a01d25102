// Histograms on the multisplit machinery: classify each element into a bin, count per bin.
//
// Bins follow NumPy 2's numpy.histogram exactly (bkt/histogram_bins.hpp states the rule):
// histogram_even: `bins` bins of equal width between the edges numpy.linspace(lo, hi, bins + 1);
// histogram_range: bins between bins + 1 sorted edges. Bin i holds edges[i] <= x < edges[i + 1],
// the last bin also x == edges[bins]. Elements below the first edge, above the last, and NaN land
// in no bin: their number is written to *d_outside (skipped when d_outside is null). NumPy raises
// on NaN only when it takes the range from the data; here NaN always counts as outside.
// Counts are 64-bit and overwrite the output. Weighted forms add each element's weight (float or
// double) to its bin, summing in double.
//
// CUB's DeviceHistogram differs on edges: HistogramEven computes (x - lo) * (bins / (hi - lo)) for
// floats without checking the edges, putting some values on or an ulp beside an edge one bin off
// (integers it divides exactly), and both of its forms count x == hi as outside.
//
// Bins: 1 to 16,777,216. Up to 12,287 bins (6,143 weighted) each block counts in shared memory;
// more bins count with global atomics. One-byte data count their 256 values and fold them into bins.
// Data types: int8..int32, uint8..uint32, float, double. Device API: device memory, asynchronous
// on `stream`; bkt/histogram.cuh takes any bin functor. Host API: bkt::host, GPU or CPU.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <span>
#include <type_traits>

#include "bkt/backend.hpp"
#include "bkt/histogram_bins.hpp"
#include "bkt/histogram_types.hpp"
#include "bkt/workspace.hpp"

namespace bkt {

/// Bytes of workspace a histogram of `bins` bins needs (the same for every size of input).
std::size_t histogram_workspace_bytes(std::int64_t bins, bool weighted = false);

/// counts[i] = elements in bin i of bins = counts.size() equal bins over [lo, hi]: edges as
/// numpy.linspace(lo, hi, bins + 1) computes them (for float data in double, then rounded to T),
/// the last bin closed. Needs lo < hi, finite, hi - lo finite in T, and bins no narrower than T
/// resolves (NumPy's "Too many bins"). Integer data take int64 bounds, so bytes can take 256 bins
/// over [0, 256].
template <class T>
void histogram_even(std::span<const std::type_identity_t<T>> data, std::span<std::int64_t> counts,
                    histogram_level<T> lo, histogram_level<T> hi, edge_precision precision, std::int64_t* d_outside,
                    workspace& ws, cudaStream_t stream);

/// The same with edges computed in double (edge_precision::f64).
template <class T>
void histogram_even(std::span<const std::type_identity_t<T>> data, std::span<std::int64_t> counts,
                    histogram_level<T> lo, histogram_level<T> hi, std::int64_t* d_outside, workspace& ws,
                    cudaStream_t stream) {
  histogram_even<T>(data, counts, lo, hi, edge_precision::f64, d_outside, ws, stream);
}

/// counts[i] = elements in [edges[i], edges[i + 1]), the last bin [edges[bins - 1], edges[bins]]
/// closed; edges (device memory) holds counts.size() + 1 ascending values.
template <class T>
void histogram_range(std::span<const std::type_identity_t<T>> data, std::span<const std::type_identity_t<T>> edges,
                     std::span<std::int64_t> counts, std::int64_t* d_outside, workspace& ws, cudaStream_t stream);

/// sums[i] = the sum of weights[j] over the elements data[j] in bin i.
template <class T, class W>
void histogram_even(std::span<const std::type_identity_t<T>> data, std::span<const std::type_identity_t<W>> weights,
                    std::span<double> sums, histogram_level<T> lo, histogram_level<T> hi, edge_precision precision,
                    double* d_outside, workspace& ws, cudaStream_t stream);

template <class T, class W>
void histogram_even(std::span<const std::type_identity_t<T>> data, std::span<const std::type_identity_t<W>> weights,
                    std::span<double> sums, histogram_level<T> lo, histogram_level<T> hi, double* d_outside,
                    workspace& ws, cudaStream_t stream) {
  histogram_even<T, W>(data, weights, sums, lo, hi, edge_precision::f64, d_outside, ws, stream);
}

template <class T, class W>
void histogram_range(std::span<const std::type_identity_t<T>> data, std::span<const std::type_identity_t<W>> weights,
                     std::span<const std::type_identity_t<T>> edges, std::span<double> sums, double* d_outside,
                     workspace& ws, cudaStream_t stream);

namespace host {

/// Host-memory histograms; each returns the number of elements outside every bin.
template <class T>
std::int64_t histogram_even(std::span<const std::type_identity_t<T>> data, std::span<std::int64_t> counts,
                            histogram_level<T> lo, histogram_level<T> hi, backend where = backend::automatic,
                            edge_precision precision = edge_precision::f64);
template <class T>
std::int64_t histogram_range(std::span<const std::type_identity_t<T>> data,
                             std::span<const std::type_identity_t<T>> edges, std::span<std::int64_t> counts,
                             backend where = backend::automatic);

}  // namespace host
}  // namespace bkt
