// The group of ranks a bkt::dist call runs over: one NCCL communicator, one GPU per rank.
//
// MPI (or the caller's own launcher) only starts the ranks and hands out the NCCL unique id; every
// byte of data moves through NCCL on the caller's CUDA stream. A communicator serves one call at a
// time: calls on it must be made in the same order on every rank (they are collective).
#pragma once

#include <cuda_runtime_api.h>
#include <mpi.h>
#include <nccl.h>

#include <cstdint>

namespace bkt::dist {

class communicator;
namespace detail {
struct communicator_access;
}

/// The NCCL unique id rank 0 makes and every rank must receive (bkt::dist::make_unique_id).
using unique_id = ncclUniqueId;

/// A fresh NCCL unique id (ncclGetUniqueId); for callers with their own launcher.
unique_id make_unique_id();

class communicator {
 public:
  /// Collective over `comm` (MPI_Init must have run): picks this rank's GPU by its rank among the
  /// ranks of its node (MPI_Comm_split_type, MPI_COMM_TYPE_SHARED), makes it the current device,
  /// and creates the NCCL communicator with an id rank 0 broadcasts. A node with more ranks than
  /// GPUs is an error on every rank.
  explicit communicator(MPI_Comm comm);
  /// Collective over the `size` ranks given the same `id`: this rank's place and its GPU.
  communicator(const unique_id& id, int rank, int size, int device);
  ~communicator();
  communicator(const communicator&) = delete;
  communicator& operator=(const communicator&) = delete;

  int rank() const noexcept { return rank_; }
  int size() const noexcept { return size_; }
  /// The CUDA device of this rank; every bkt::dist call makes it current while it runs.
  int device() const noexcept { return device_; }
  /// The NCCL communicator, for the caller's own NCCL calls (in the same order on every rank).
  ncclComm_t nccl() const noexcept { return comm_; }

  /// Returns once every rank has reached the barrier and `stream` has run all work before it: an
  /// all-reduce of one word on `stream`, then a wait for it.
  void barrier(cudaStream_t stream) const;

 private:
  friend struct detail::communicator_access;
  void init(const unique_id& id);

  ncclComm_t comm_ = nullptr;
  int rank_ = 0;
  int size_ = 1;
  int device_ = 0;
  /// Device words for the per-call records (bkt/dist/detail/agreement.hpp) and the barrier.
  std::int64_t* control_ = nullptr;
  /// A high-priority stream of the rank's device on which the sort's exchange runs while the
  /// caller's stream merges (ordered with it by events inside each call).
  cudaStream_t side_ = nullptr;
};

}  // namespace bkt::dist
