#include "bkt/dist/communicator.hpp"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "access.hpp"
#include "bkt/dist/error.hpp"
#include "bkt/error.hpp"

namespace bkt::dist {
namespace {

/// A duplicate of the caller's MPI communicator that reports errors instead of aborting, freed on
/// scope exit: the constructor's few MPI calls then fail with a bkt::dist::comm_error.
class mpi_duplicate {
 public:
  explicit mpi_duplicate(MPI_Comm comm) {
    BKT_MPI_CHECK(-1, MPI_Comm_dup(comm, &comm_));
    BKT_MPI_CHECK(-1, MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN));
  }
  ~mpi_duplicate() { MPI_Comm_free(&comm_); }
  mpi_duplicate(const mpi_duplicate&) = delete;
  mpi_duplicate& operator=(const mpi_duplicate&) = delete;
  MPI_Comm get() const { return comm_; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
};

/// This rank's place among the ranks of its node, and how many share the node.
void node_place(MPI_Comm comm, int rank, int& local_rank, int& local_size) {
  MPI_Comm node = MPI_COMM_NULL;
  BKT_MPI_CHECK(rank, MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node));
  const int rank_code = MPI_Comm_rank(node, &local_rank);
  const int size_code = MPI_Comm_size(node, &local_size);
  MPI_Comm_free(&node);
  BKT_MPI_CHECK(rank, rank_code);
  BKT_MPI_CHECK(rank, size_code);
}

/// What rank 0 broadcasts: whether it could make an id, and the id.
struct id_message {
  int ok = 0;
  unique_id id{};
};

}  // namespace

unique_id make_unique_id() {
  unique_id id{};
  BKT_NCCL_CHECK(-1, ncclGetUniqueId(&id));
  return id;
}

communicator::communicator(MPI_Comm comm) {
  int initialized = 0;
  BKT_MPI_CHECK(-1, MPI_Initialized(&initialized));
  BKT_EXPECTS(initialized != 0, "bkt::dist::communicator: MPI is not initialized (call MPI_Init first)");
  const mpi_duplicate own(comm);
  BKT_MPI_CHECK(-1, MPI_Comm_rank(own.get(), &rank_));
  BKT_MPI_CHECK(rank_, MPI_Comm_size(own.get(), &size_));
  int local_rank = 0, local_size = 1;
  node_place(own.get(), rank_, local_rank, local_size);

  // Every rank learns whether every rank has a GPU of its own before any rank commits to NCCL, so
  // that a bad placement fails everywhere instead of leaving ranks waiting.
  int devices = 0;
  const cudaError_t count_code = cudaGetDeviceCount(&devices);
  if (count_code != cudaSuccess) (void)cudaGetLastError();
  const int fine = count_code == cudaSuccess && devices > 0 ? 1 : 0;
  std::vector<int> all_fine(static_cast<std::size_t>(size_));
  BKT_MPI_CHECK(rank_, MPI_Allgather(&fine, 1, MPI_INT, all_fine.data(), 1, MPI_INT, own.get()));
  for (int r = 0; r < size_; ++r) {
    if (all_fine[r] != 0) continue;
    std::string what = "bkt::dist::communicator: rank " + std::to_string(r) + " sees no GPU";
    if (r == rank_ && count_code != cudaSuccess) what += std::string(" (") + cudaGetErrorString(count_code) + ")";
    throw error(what + " (rank " + std::to_string(rank_) + ")", count_code, __FILE__, __LINE__);
  }
  // One GPU per rank of the node; a launcher that shows each rank one GPU (CUDA_VISIBLE_DEVICES)
  // gives device 0 to all. Two ranks on one GPU make ncclCommInitRank fail ("duplicate GPU").
  device_ = local_rank % devices;
  (void)local_size;
  BKT_CUDA_CHECK(cudaSetDevice(device_));

  id_message message;
  if (rank_ == 0) message.ok = ncclGetUniqueId(&message.id) == ncclSuccess ? 1 : 0;
  BKT_MPI_CHECK(rank_, MPI_Bcast(&message, sizeof(message), MPI_BYTE, 0, own.get()));
  if (message.ok == 0)
    throw comm_error("bkt::dist::communicator: rank 0 could not make an NCCL unique id (rank " +
                         std::to_string(rank_) + ")",
                     static_cast<int>(ncclSystemError), __FILE__, __LINE__);
  init(message.id);
}

communicator::communicator(const unique_id& id, int rank, int size, int device)
    : rank_(rank), size_(size), device_(device) {
  BKT_EXPECTS(size >= 1 && rank >= 0 && rank < size, "bkt::dist::communicator: rank outside [0, size)");
  BKT_EXPECTS(device >= 0, "bkt::dist::communicator: negative device");
  BKT_CUDA_CHECK(cudaSetDevice(device_));
  init(id);
}

void communicator::init(const unique_id& id) {
  BKT_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&control_),
                            sizeof(std::int64_t) * static_cast<std::size_t>(detail::control_words(size_))));
  BKT_CUDA_CHECK(cudaMemset(control_, 0, sizeof(std::int64_t) * static_cast<std::size_t>(detail::control_words(size_))));
  int least = 0, greatest = 0;
  BKT_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  BKT_CUDA_CHECK(cudaStreamCreateWithPriority(&side_, cudaStreamNonBlocking, greatest));
  const ncclResult_t result = ncclCommInitRank(&comm_, size_, id, rank_);
  if (result != ncclSuccess) {
    cudaFree(control_);
    control_ = nullptr;
    cudaStreamDestroy(side_);
    side_ = nullptr;
    comm_ = nullptr;
    BKT_NCCL_CHECK(rank_, result);
  }
}

communicator::~communicator() {
  // Destructors must not throw: report and carry on.
  if (cudaSetDevice(device_) != cudaSuccess) (void)cudaGetLastError();
  if (comm_ != nullptr)
    if (const ncclResult_t result = ncclCommDestroy(comm_); result != ncclSuccess)
      std::fprintf(stderr, "bkt: ncclCommDestroy failed on rank %d: %s\n", rank_, ncclGetErrorString(result));
  if (side_ != nullptr)
    if (const cudaError_t code = cudaStreamDestroy(side_); code != cudaSuccess)
      std::fprintf(stderr, "bkt: cudaStreamDestroy failed: %s\n", cudaGetErrorString(code));
  if (control_ != nullptr)
    if (const cudaError_t code = cudaFree(control_); code != cudaSuccess)
      std::fprintf(stderr, "bkt: cudaFree failed: %s\n", cudaGetErrorString(code));
}

void communicator::barrier(cudaStream_t stream) const {
  const detail::device_scope scope(device_);
  std::int64_t* word = control_ + detail::barrier_word_offset(size_);
  BKT_NCCL_CHECK(rank_, ncclAllReduce(word, word, 1, ncclInt64, ncclSum, comm_, stream));
  BKT_CUDA_CHECK(cudaStreamSynchronize(stream));
}

}  // namespace bkt::dist
