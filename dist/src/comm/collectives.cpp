#include "collectives.hpp"

#include <nccl.h>

#include <cstdio>
#include <vector>

#include "access.hpp"
#include "bkt/dist/error.hpp"
#include "bkt/error.hpp"

namespace bkt::dist::detail {
namespace {

/// An NCCL group that is closed even when a call inside it throws, so that the communicator stays
/// usable for the error's report.
class nccl_group {
 public:
  explicit nccl_group(int rank) : rank_(rank) { BKT_NCCL_CHECK(rank_, ncclGroupStart()); }
  ~nccl_group() {
    if (open_) (void)ncclGroupEnd();
  }
  nccl_group(const nccl_group&) = delete;
  nccl_group& operator=(const nccl_group&) = delete;
  void end() {
    open_ = false;
    BKT_NCCL_CHECK(rank_, ncclGroupEnd());
  }

 private:
  int rank_;
  bool open_ = true;
};

const std::byte* bytes_at(const void* base, std::int64_t offset, std::size_t scale) {
  return static_cast<const std::byte*>(base) + static_cast<std::size_t>(offset) * scale;
}
std::byte* bytes_at(void* base, std::int64_t offset, std::size_t scale) {
  return static_cast<std::byte*>(base) + static_cast<std::size_t>(offset) * scale;
}

}  // namespace

device_scope::device_scope(int device) {
  BKT_CUDA_CHECK(cudaGetDevice(&previous_));
  if (previous_ != device) BKT_CUDA_CHECK(cudaSetDevice(device));
}

device_scope::~device_scope() {
  int current = -1;
  if (cudaGetDevice(&current) == cudaSuccess && current != previous_ && previous_ >= 0)
    if (const cudaError_t code = cudaSetDevice(previous_); code != cudaSuccess)
      std::fprintf(stderr, "bkt: cudaSetDevice failed: %s\n", cudaGetErrorString(code));
}

agreement agree_sync(const communicator& comm, const std::string& call, const call_record& mine,
                     std::span<const char* const> names, const std::exception_ptr& local_error, cudaStream_t stream) {
  const int num_ranks = comm.size();
  std::int64_t* records = communicator_access::control(comm);
  const auto words = mine.words();
  std::int64_t* own = records + static_cast<std::size_t>(comm.rank()) * record_words;
  BKT_CUDA_CHECK(cudaMemcpyAsync(own, words.data(), sizeof(words), cudaMemcpyHostToDevice, stream));
  BKT_NCCL_CHECK(comm.rank(), ncclAllGather(own, records, record_words, ncclInt64, comm.nccl(), stream));
  std::vector<std::int64_t> gathered(static_cast<std::size_t>(num_ranks) * record_words);
  BKT_CUDA_CHECK(cudaMemcpyAsync(gathered.data(), records, gathered.size() * sizeof(std::int64_t),
                                 cudaMemcpyDeviceToHost, stream));
  BKT_CUDA_CHECK(cudaStreamSynchronize(stream));
  if (local_error) std::rethrow_exception(local_error);
  return check_agreement(call, gathered, num_ranks, comm.rank(), names, "");
}

void all_gather_v(const communicator& comm, const void* send, void* recv, std::span<const std::int64_t> bytes,
                  std::span<const std::int64_t> offsets, cudaStream_t stream) {
  const int me = comm.rank();
  bool any = false;
  for (const std::int64_t b : bytes) any = any || b > 0;
  if (!any) return;
  nccl_group group(me);
  for (int root = 0; root < comm.size(); ++root) {
    if (bytes[root] <= 0) continue;
    std::byte* destination = bytes_at(recv, offsets[root], 1);
    // sendbuff is read on the root only; elsewhere it may be anything, so pass the destination.
    const void* source = root == me ? send : destination;
    BKT_NCCL_CHECK(me, ncclBroadcast(source, destination, static_cast<std::size_t>(bytes[root]), ncclUint8, root,
                                     comm.nccl(), stream));
  }
  group.end();
}

void all_gather(const communicator& comm, const void* send, void* recv, std::size_t bytes, cudaStream_t stream) {
  if (bytes == 0) return;
  BKT_NCCL_CHECK(comm.rank(), ncclAllGather(send, recv, bytes, ncclUint8, comm.nccl(), stream));
}

namespace {
template <class T>
void reduce_two(const communicator& comm, T* first, std::size_t first_count, T* second, std::size_t second_count,
                ncclDataType_t type, cudaStream_t stream) {
  if (first_count == 0 && second_count == 0) return;
  nccl_group group(comm.rank());
  if (first_count > 0)
    BKT_NCCL_CHECK(comm.rank(), ncclAllReduce(first, first, first_count, type, ncclSum, comm.nccl(), stream));
  if (second_count > 0)
    BKT_NCCL_CHECK(comm.rank(), ncclAllReduce(second, second, second_count, type, ncclSum, comm.nccl(), stream));
  group.end();
}
}  // namespace

void all_reduce_sum(const communicator& comm, std::int64_t* first, std::size_t first_count, std::int64_t* second,
                    std::size_t second_count, cudaStream_t stream) {
  reduce_two(comm, first, first_count, second, second_count, ncclInt64, stream);
}

void all_reduce_sum(const communicator& comm, double* first, std::size_t first_count, double* second,
                    std::size_t second_count, cudaStream_t stream) {
  reduce_two(comm, first, first_count, second, second_count, ncclFloat64, stream);
}

void exchange_chunk(const communicator& comm, const exchange_plan& plan, int chunk,
                    std::span<const exchange_array> arrays, cudaStream_t stream) {
  const int me = comm.rank();
  const int num_ranks = comm.size();
  const int chunks = plan.chunks;
  bool remote = false;
  for (int peer = 0; peer < num_ranks; ++peer) {
    const std::size_t at = static_cast<std::size_t>(peer) * chunks + chunk;
    remote = remote || (peer != me && (plan.send_window_count[at] > 0 || plan.recv_window_count[at] > 0));
  }
  if (!remote) return;
  // Both sides derive their windows from the same gathered matrix, so a skipped empty chunk is
  // skipped by its peer too; sends to one peer match its receives in the order issued (keys, then
  // values). Windows start and end on 16-byte boundaries: NCCL then copies in 16-byte packs
  // instead of falling back to element-sized ones.
  nccl_group group(me);
  for (int peer = 0; peer < num_ranks; ++peer) {
    if (peer == me) continue;
    const std::size_t at = static_cast<std::size_t>(peer) * chunks + chunk;
    for (const exchange_array& a : arrays) {
      if (plan.send_window_count[at] > 0)
        BKT_NCCL_CHECK(me, ncclSend(bytes_at(a.send, plan.send_window_first[at], a.element_bytes),
                                    static_cast<std::size_t>(plan.send_window_count[at]) * a.element_bytes, ncclUint8,
                                    peer, comm.nccl(), stream));
      if (plan.recv_window_count[at] > 0)
        BKT_NCCL_CHECK(me, ncclRecv(bytes_at(a.recv, plan.recv_window_offsets[at], a.element_bytes),
                                    static_cast<std::size_t>(plan.recv_window_count[at]) * a.element_bytes, ncclUint8,
                                    peer, comm.nccl(), stream));
    }
  }
  group.end();
}

void all_gather_v_group(const communicator& comm, std::span<const gather_array> arrays, cudaStream_t stream) {
  const int me = comm.rank();
  bool any = false;
  for (const gather_array& a : arrays)
    for (const std::int64_t b : a.bytes) any = any || b > 0;
  if (!any) return;
  nccl_group group(me);
  for (int root = 0; root < comm.size(); ++root)
    for (const gather_array& a : arrays) {
      if (a.bytes[root] <= 0) continue;
      std::byte* destination = bytes_at(a.recv, a.offsets[root], 1);
      const void* source = root == me ? a.send : destination;  // read on the root only
      BKT_NCCL_CHECK(me, ncclBroadcast(source, destination, static_cast<std::size_t>(a.bytes[root]), ncclUint8, root,
                                       comm.nccl(), stream));
    }
  group.end();
}

}  // namespace bkt::dist::detail
