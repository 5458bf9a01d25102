// Element-wise sums across the ranks, for callers that compute their own per-rank partial results
// (bkt-histogram's chunked counts, for instance) and need the total on every rank.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <span>

#include "bkt/dist/communicator.hpp"

namespace bkt::dist {

/// Collective (every rank, the same size): values[i] (device memory) becomes, on every rank, the
/// sum of values[i] over the ranks (ncclAllReduce on `stream`; the call does not wait for it).
/// Integer sums are exact; double sums are added in NCCL's order, so they may differ in the last
/// bits from a sum in another order.
void all_reduce_sum(const communicator& comm, std::span<std::int64_t> values, cudaStream_t stream);
void all_reduce_sum(const communicator& comm, std::span<double> values, cudaStream_t stream);

}  // namespace bkt::dist
