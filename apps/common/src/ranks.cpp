// The rank layer over MPI: MPI_Init only for a launch with several ranks, one GPU per rank, and
// the few small collectives the tools need. Every MPI call is checked: MPI_COMM_WORLD returns
// errors instead of aborting, and a failure becomes an mpi_failure naming the call and the rank.
#include <cuda_runtime_api.h>
#include <mpi.h>

#include <climits>
#include <cstdlib>

#include "bkt_apps/ranks.hpp"

namespace bkt::apps {
namespace {

/// Throws mpi_failure "rank R: CALL failed: REASON" unless `code` is MPI_SUCCESS.
void check_mpi(int code, const char* call, int rank) {
  if (code == MPI_SUCCESS) return;
  char reason[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  if (MPI_Error_string(code, reason, &length) != MPI_SUCCESS) length = 0;
  throw mpi_failure("rank " + std::to_string(rank) + ": " + call + " failed: " +
                    (length > 0 ? std::string(reason, static_cast<std::size_t>(length)) : "error " + std::to_string(code)));
}
#define BKT_APPS_MPI_CHECK(call) check_mpi((call), #call, rank_)

/// Makes GPU local_rank % count current, before this rank's first other CUDA call (the context
/// lands there). Nothing when the machine has no usable GPU: the tool then runs on the CPU.
void select_device(int local_rank) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    (void)cudaGetLastError();
    return;
  }
  const int device = local_rank % count;
  const cudaError_t code = cudaSetDevice(device);
  if (code != cudaSuccess)
    throw app_error("local rank " + std::to_string(local_rank) + ": cudaSetDevice(" + std::to_string(device) +
                        ") failed: " + cudaGetErrorString(code),
                    exit_gpu_failure);
}

/// A length for an MPI count argument.
int count_of(std::size_t bytes, int rank) {
  if (bytes > static_cast<std::size_t>(INT_MAX))
    throw mpi_failure("rank " + std::to_string(rank) + ": a message of " + std::to_string(bytes) +
                      " bytes is over MPI's int count");
  return static_cast<int>(bytes);
}

/// Where each rank's text lands in one buffer that a gather fills, and the texts taken back out.
struct joined_texts {
  std::vector<int> offsets;
  std::string joined;

  joined_texts(const std::vector<int>& lengths, int rank) : offsets(lengths.size()) {
    std::size_t total = 0;
    for (std::size_t r = 0; r < lengths.size(); ++r) {
      offsets[r] = count_of(total, rank);
      total += static_cast<std::size_t>(lengths[r]);
    }
    joined.assign(total, '\0');
  }

  std::vector<std::string> split(const std::vector<int>& lengths) const {
    std::vector<std::string> texts;
    for (std::size_t r = 0; r < lengths.size(); ++r)
      texts.push_back(joined.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(lengths[r])));
    return texts;
  }
};

}  // namespace

bool built_with_mpi() noexcept { return true; }

rank_context::rank_context() {
  const launch_environment launch = read_launch_environment(std::getenv);
  if (!launch.under_launcher || (launch.size && *launch.size <= 1)) return;
  // A CUDA-aware MPI may touch the current device in MPI_Init: choose it first when the launcher
  // says where this rank sits on its host.
  if (launch.local_rank) select_device(*launch.local_rank);
  int already = 0;
  BKT_APPS_MPI_CHECK(MPI_Initialized(&already));
  if (!already) {
    BKT_APPS_MPI_CHECK(MPI_Init(nullptr, nullptr));
    initialized_mpi_ = true;
  }
  BKT_APPS_MPI_CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  BKT_APPS_MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank_));
  BKT_APPS_MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size_));
  if (launch.local_rank) {
    local_rank_ = *launch.local_rank;
    return;
  }
  MPI_Comm host = MPI_COMM_NULL;
  BKT_APPS_MPI_CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &host));
  const int rank_code = MPI_Comm_rank(host, &local_rank_);
  MPI_Comm_free(&host);
  BKT_APPS_MPI_CHECK(rank_code);
  select_device(local_rank_);
}

rank_context::~rank_context() {
  if (!initialized_mpi_) return;
  int finalized = 0;
  if (MPI_Finalized(&finalized) == MPI_SUCCESS && !finalized) MPI_Finalize();
}

rank_agreement rank_context::all_succeeded(bool ok, const std::string& message, int exit_code) {
  if (!several()) {
    if (ok) return {};
    close_agreements();
    return {false, 0, message, exit_code};
  }
  // The lowest failing rank, or size_ when none failed.
  const int mine = ok ? size_ : rank_;
  int lowest = size_;
  BKT_APPS_MPI_CHECK(MPI_Allreduce(&mine, &lowest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
  if (lowest == size_) return {};
  close_agreements();
  // That rank hands everyone its exit code and message.
  int header[2] = {exit_code, rank_ == lowest ? count_of(message.size(), rank_) : 0};
  BKT_APPS_MPI_CHECK(MPI_Bcast(header, 2, MPI_INT, lowest, MPI_COMM_WORLD));
  std::string text = rank_ == lowest ? message : std::string(static_cast<std::size_t>(header[1]), '\0');
  if (header[1] > 0) BKT_APPS_MPI_CHECK(MPI_Bcast(text.data(), header[1], MPI_CHAR, lowest, MPI_COMM_WORLD));
  return {false, lowest, std::move(text), header[0]};
}

void rank_context::barrier() {
  if (several()) BKT_APPS_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
}

std::vector<std::string> rank_context::gather_to_root(const std::string& text) {
  if (!several()) return {text};
  const int length = count_of(text.size(), rank_);
  std::vector<int> lengths(is_root() ? static_cast<std::size_t>(size_) : 0);
  BKT_APPS_MPI_CHECK(MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD));
  joined_texts texts(lengths, rank_);
  BKT_APPS_MPI_CHECK(MPI_Gatherv(text.data(), length, MPI_CHAR, texts.joined.data(), lengths.data(),
                                 texts.offsets.data(), MPI_CHAR, 0, MPI_COMM_WORLD));
  return texts.split(lengths);
}

std::string rank_context::broadcast_from_root(const std::string& text) {
  if (!several()) return text;
  int length = is_root() ? count_of(text.size(), rank_) : 0;
  BKT_APPS_MPI_CHECK(MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD));
  std::string result = is_root() ? text : std::string(static_cast<std::size_t>(length), '\0');
  if (length > 0) BKT_APPS_MPI_CHECK(MPI_Bcast(result.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD));
  return result;
}

std::vector<std::int64_t> rank_context::all_gather(std::int64_t value) {
  std::vector<std::int64_t> values(static_cast<std::size_t>(size_), value);
  if (several())
    BKT_APPS_MPI_CHECK(MPI_Allgather(&value, 1, MPI_INT64_T, values.data(), 1, MPI_INT64_T, MPI_COMM_WORLD));
  return values;
}

std::vector<std::string> rank_context::all_gather(const std::string& bytes) {
  if (!several()) return {bytes};
  const int length = count_of(bytes.size(), rank_);
  std::vector<int> lengths(static_cast<std::size_t>(size_));
  BKT_APPS_MPI_CHECK(MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, MPI_COMM_WORLD));
  joined_texts texts(lengths, rank_);
  BKT_APPS_MPI_CHECK(MPI_Allgatherv(bytes.data(), length, MPI_CHAR, texts.joined.data(), lengths.data(),
                                    texts.offsets.data(), MPI_CHAR, MPI_COMM_WORLD));
  return texts.split(lengths);
}

void rank_context::abort_job(int exit_code) noexcept {
  if (several()) MPI_Abort(MPI_COMM_WORLD, exit_code);
}

}  // namespace bkt::apps
