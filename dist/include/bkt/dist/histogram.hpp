// Distributed histograms: each rank counts its elements with the single-GPU histogram
// (bkt/histogram.hpp, whose bin rules apply unchanged), then ncclAllReduce sums the bins and the
// outside count, so every rank ends with the histogram of all the ranks' elements. Counts are
// exact; weighted sums are added in double, per rank and then across ranks, so they may differ in
// the last bits from a single-GPU sum of the same elements (exact for integer weights below 2^53).
//
// Calls are collective (every rank, same order, the same bins, range or edges) and synchronize
// `stream` once (the host checks that every rank's arguments were good before data moves). Device
// memory; types as bkt/histogram.hpp.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <span>
#include <type_traits>

#include "bkt/dist/communicator.hpp"
#include "bkt/dist/workspace.hpp"
#include "bkt/histogram.hpp"

namespace bkt::dist {

/// counts[i] (every rank) = elements of all ranks in bin i of counts.size() equal bins over
/// [lo, hi); *d_outside (when not null) = the elements of all ranks in no bin.
template <class T>
void histogram_even(const communicator& comm, std::span<const std::type_identity_t<T>> data,
                    std::span<std::int64_t> counts, histogram_level<T> lo, histogram_level<T> hi,
                    std::int64_t* d_outside, workspace& ws, cudaStream_t stream);

/// counts[i] = elements of all ranks in [edges[i], edges[i + 1]); edges in device memory.
template <class T>
void histogram_range(const communicator& comm, std::span<const std::type_identity_t<T>> data,
                     std::span<const std::type_identity_t<T>> edges, std::span<std::int64_t> counts,
                     std::int64_t* d_outside, workspace& ws, cudaStream_t stream);

/// sums[i] = the weights (float or double) of the elements of all ranks in bin i.
template <class T, class W>
void histogram_even(const communicator& comm, std::span<const std::type_identity_t<T>> data,
                    std::span<const std::type_identity_t<W>> weights, std::span<double> sums, histogram_level<T> lo,
                    histogram_level<T> hi, double* d_outside, workspace& ws, cudaStream_t stream);

template <class T, class W>
void histogram_range(const communicator& comm, std::span<const std::type_identity_t<T>> data,
                     std::span<const std::type_identity_t<W>> weights, std::span<const std::type_identity_t<T>> edges,
                     std::span<double> sums, double* d_outside, workspace& ws, cudaStream_t stream);

}  // namespace bkt::dist
