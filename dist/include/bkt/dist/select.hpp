// Distributed selection over elements spread across the ranks of a communicator: the k-th
// element, many ranks at once, and the k largest (or smallest) with their global positions.
//
// Order, NaN and ties: as bkt/select.hpp (-inf < ... < -0.0 < +0.0 < ... < +inf < NaN, every NaN
// equal to every other; ties go to the smaller global position). The global input is the ranks'
// inputs concatenated in rank order, so global positions are a rank's first global index plus the
// local one, and every answer is the single-GPU answer over that concatenation, for every number
// of ranks. Results land on every rank.
//
// select_kth and multiselect are a radix select over the selection image: per 8-bit digit, each
// rank counts the digits of its elements that match the prefix found so far (one histogram pass,
// all requested ranks together), the 256 counts per prefix are summed by ncclAllReduce, and the
// host picks the digit: 4 rounds for 32-bit types, 8 for 64-bit, each synchronizing `stream` once
// (and once more at the start, when the ranks' records are gathered; top_k synchronizes only then).
// A NaN result is the canonical quiet NaN (NaNs are equal in this order). No rank gathers data.
//
// top_k runs bkt::top_k on each rank (k candidates at most, sorted), gathers the N k candidates
// on every rank and selects the k best of them with the same tie rule; since each rank's
// candidates list equal keys by position and ranks come in order, the candidates' order among
// equal keys is the global position order. Memory per rank: O(N k).
//
// Calls are collective (every rank, same order, same k, ranks and options). Device memory;
// types int32, uint32, int64, uint64, float, double.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <span>
#include <type_traits>

#include "bkt/dist/communicator.hpp"
#include "bkt/dist/workspace.hpp"

namespace bkt::dist {

/// *result (device memory, every rank) = the element of global rank k, 0 <= k < n.
template <class T>
void select_kth(const communicator& comm, std::span<const std::type_identity_t<T>> data, std::int64_t k, T* result,
                workspace& ws, cudaStream_t stream);

/// results[i] (device memory, every rank) = the element of global rank ranks[i]; ranks in host
/// memory, the same on every rank, any order, repeats allowed, at most 65536 of them.
template <class T>
void multiselect(const communicator& comm, std::span<const std::type_identity_t<T>> data,
                 std::span<const std::int64_t> ranks, std::span<T> results, workspace& ws, cudaStream_t stream);

struct top_k_options {
  bool largest = true;  ///< false: the k smallest
};

/// The k largest (or smallest) elements over all ranks, on every rank, sorted from the first to the
/// k-th (equal keys by global position): values into values_out, global positions into
/// indices_out (Index std::uint32_t when n <= 2^32, or std::int64_t). Either output may be empty;
/// a non-empty one holds at least k elements. 0 <= k <= n.
template <class T, class Index>
void top_k(const communicator& comm, std::span<const std::type_identity_t<T>> data, std::int64_t k,
           std::span<T> values_out, std::span<Index> indices_out, workspace& ws, cudaStream_t stream,
           const top_k_options& options = {});

}  // namespace bkt::dist
