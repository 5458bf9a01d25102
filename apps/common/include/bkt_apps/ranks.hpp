// How a tool's process was launched: alone, or as one of several ranks that `mpirun -np N`
// started. MPI only launches the ranks and carries a few small messages (agreement on failure,
// summaries gathered to rank 0); data between GPUs goes through NCCL (bkt::dist, docs/dist.md).
//
// MPI_Init runs only when the launcher's environment says there are several ranks
// (OMPI_COMM_WORLD_SIZE from Open MPI, PMI_SIZE from MPICH/Hydra, Intel MPI and Slurm's PMI-2, or
// PMIX_RANK from a PMIx launcher, whose size MPI_Init then tells). A plain run never calls MPI:
// Open MPI's singleton init starts a helper daemon, which costs time and fails in some
// containers, and a tool run alone must behave exactly as it would in a build without MPI.
// A build without MPI (the library is optional) has the same API with one rank, and refuses a
// launch with several ranks instead of letting them all write the same outputs.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bkt_apps/app_error.hpp"

namespace bkt::apps {

class output_set;

/// Ranks and local rank that the launcher's environment announces.
struct launch_environment {
  std::optional<int> size;        // ranks in the job; nullopt: no launcher, or one that says no size
  std::optional<int> local_rank;  // place on this host
  bool under_launcher = false;    // some MPI launcher's variables are present
};

/// Reads the launcher's variables through `lookup` (getenv, or a test's table).
launch_environment read_launch_environment(const std::function<const char*(const char*)>& lookup);

/// Whether this build can run several ranks (MPI was found when it was configured).
bool built_with_mpi() noexcept;

/// The usage error of a tool whose work on several ranks needs bkt::dist (NCCL), in a build
/// without it, launched as `ranks` ranks.
app_error several_ranks_need_dist(int ranks);

/// The outcome of all_succeeded(): the same on every rank.
struct rank_agreement {
  bool ok = true;
  int failed_rank = -1;          // the lowest rank that failed; -1 when all succeeded
  std::string message;           // that rank's message, as it gave it
  int exit_code = exit_ok;       // that rank's exit code
};

/// Several ranks failed or one did: thrown on every rank by require_all_succeeded(); what() is
/// "rank R: message" (the message alone in a run of one rank), code() the failing rank's code.
class ranks_failed : public app_error {
 public:
  using app_error::app_error;
};

/// An MPI call that failed: what() names the call, the rank and MPI's reason. Other ranks may be
/// waiting in a collective, so run_tool aborts the job after printing it.
class mpi_failure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// This process's place among the ranks. Made once per process, by run_tool, before any CUDA
/// call; destroying it finalizes MPI when it initialized MPI. Not copyable.
class rank_context {
 public:
  /// Joins the job when launched with several ranks: MPI_Init, then the GPU local_rank %
  /// device_count (none when there is no GPU). Alone: one rank, no MPI, the device untouched.
  /// Throws usage_error in a build without MPI launched with several ranks, mpi_failure when MPI
  /// fails to start.
  rank_context();
  ~rank_context();
  rank_context(const rank_context&) = delete;
  rank_context& operator=(const rank_context&) = delete;

  int rank() const noexcept { return rank_; }
  int size() const noexcept { return size_; }
  int local_rank() const noexcept { return local_rank_; }
  bool is_root() const noexcept { return rank_ == 0; }
  /// More than one rank.
  bool several() const noexcept { return size_ > 1; }

  /// Collective: every rank says whether it succeeded; all learn the lowest failing rank, its
  /// message and its exit code. Every rank must call it the same number of times.
  rank_agreement all_succeeded(bool ok, const std::string& message = {}, int exit_code = exit_bad_input);
  /// Collective: all_succeeded(true), throwing ranks_failed on every rank when any rank failed.
  void require_all_succeeded();
  /// Collective: waits until every rank reaches it.
  void barrier();
  /// Collective: rank 0 gets every rank's `text`, in rank order; other ranks get an empty vector.
  std::vector<std::string> gather_to_root(const std::string& text);
  /// Collective: every rank gets rank 0's `text`.
  std::string broadcast_from_root(const std::string& text);
  /// Collective: every rank gets every rank's `value`, in rank order.
  std::vector<std::int64_t> all_gather(std::int64_t value);
  /// Collective: every rank gets every rank's `bytes`, in rank order.
  std::vector<std::string> all_gather(const std::string& bytes);

  /// The collective commit point: finishes this rank's outputs (a write error shows here), then
  /// require_all_succeeded(), then commit_all(). No output appears on any rank unless every rank
  /// got this far; past it no agreement is made (close_agreements()).
  void commit_together(output_set& outputs);

  /// Whether a failure may still be agreed: false once an agreement has reported a failure or the
  /// commit point has passed, when the other ranks wait in no further agreement.
  bool agreements_open() const noexcept { return agreements_open_; }
  void close_agreements() noexcept { agreements_open_ = false; }

  /// Ends the whole job at once (MPI_Abort) after an MPI failure; alone, returns.
  void abort_job(int exit_code) noexcept;

  /// "rank R: message" when there are several ranks, else `message` unchanged.
  std::string label(std::string_view message) const;

 private:
  int rank_ = 0;
  int size_ = 1;
  int local_rank_ = 0;
  bool initialized_mpi_ = false;
  bool agreements_open_ = true;
};

}  // namespace bkt::apps
