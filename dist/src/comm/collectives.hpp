// The thin NCCL layer of bkt::dist: each function enqueues NCCL calls on `stream` (ordered with the
// kernels around them) and checks them. The *_sync ones also wait for `stream` and return host data.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <exception>
#include <span>
#include <string>

#include "bkt/dist/communicator.hpp"
#include "bkt/dist/detail/agreement.hpp"
#include "bkt/dist/detail/sort_plan.hpp"

namespace bkt::dist::detail {

/// Gathers every rank's record and returns the verdict of check_agreement, the same on every rank;
/// a rank whose local step failed (local_error) rethrows its own exception there.
agreement agree_sync(const communicator& comm, const std::string& call, const call_record& mine,
                     std::span<const char* const> names, const std::exception_ptr& local_error, cudaStream_t stream);

/// Rank r's bytes[r] bytes land at recv + offsets[r] on every rank (grouped broadcasts; ranks with
/// nothing to give are skipped alike everywhere). send may be recv + offsets[rank].
void all_gather_v(const communicator& comm, const void* send, void* recv, std::span<const std::int64_t> bytes,
                  std::span<const std::int64_t> offsets, cudaStream_t stream);

/// recv[r * bytes, (r + 1) * bytes) = rank r's `bytes` bytes; send may be recv + rank * bytes.
void all_gather(const communicator& comm, const void* send, void* recv, std::size_t bytes, cudaStream_t stream);

/// In-place sums over the ranks, both arrays in one NCCL group (either count may be 0).
void all_reduce_sum(const communicator& comm, std::int64_t* first, std::size_t first_count, std::int64_t* second,
                    std::size_t second_count, cudaStream_t stream);
void all_reduce_sum(const communicator& comm, double* first, std::size_t first_count, double* second,
                    std::size_t second_count, cudaStream_t stream);

/// One array of the exchange: elements of element_bytes from send (this rank's sorted run) to recv.
struct exchange_array {
  const void* send;
  void* recv;
  std::size_t element_bytes;
};

/// Moves chunk `chunk` of every array as the plan says, in one NCCL group of ncclSend/ncclRecv of
/// the chunk's 16-byte-aligned windows; a rank's own chunk does not move (it is merged in place),
/// and chunks of no elements make no call on either side.
void exchange_chunk(const communicator& comm, const exchange_plan& plan, int chunk,
                    std::span<const exchange_array> arrays, cudaStream_t stream);

/// One array of all_gather_v_group: rank r's bytes[r] bytes land at recv + offsets[r].
struct gather_array {
  const void* send;
  void* recv;
  std::span<const std::int64_t> bytes, offsets;
};

/// all_gather_v of several arrays in one NCCL group (one launch instead of one per array).
void all_gather_v_group(const communicator& comm, std::span<const gather_array> arrays, cudaStream_t stream);

}  // namespace bkt::dist::detail
