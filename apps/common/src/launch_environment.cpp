// The rank layer's parts that need no MPI: reading the launcher's environment, the agreement
// built on all_succeeded(), the collective commit point, and the "rank R:" label.
#include <cerrno>
#include <climits>
#include <cstdlib>

#include "bkt_apps/output_set.hpp"
#include "bkt_apps/ranks.hpp"

namespace bkt::apps {
namespace {

/// A non-negative int from a launcher's variable; nullopt when unset or not a number.
std::optional<int> read_count(const std::function<const char*(const char*)>& lookup, const char* name) {
  const char* text = lookup(name);
  if (text == nullptr || *text == '\0') return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const long value = std::strtol(text, &end, 10);
  if (errno != 0 || *end != '\0' || value < 0 || value > INT_MAX) return std::nullopt;
  return static_cast<int>(value);
}

}  // namespace

launch_environment read_launch_environment(const std::function<const char*(const char*)>& lookup) {
  launch_environment found;
  // Open MPI's mpirun (4 and 5), then PMI-1/2 launchers: MPICH's Hydra, Intel MPI, srun --mpi=pmi2.
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
    if (!found.size) found.size = read_count(lookup, name);
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "PMI_LOCAL_RANK", "SLURM_LOCALID"})
    if (!found.local_rank) found.local_rank = read_count(lookup, name);
  // A PMIx launcher (prterun, srun --mpi=pmix) names the rank but not the size: MPI_Init tells.
  found.under_launcher = found.size.has_value() || lookup("PMIX_RANK") != nullptr;
  return found;
}

void rank_context::require_all_succeeded() {
  const rank_agreement agreement = all_succeeded(true);
  if (!agreement.ok)
    throw ranks_failed(several() ? "rank " + std::to_string(agreement.failed_rank) + ": " + agreement.message
                                 : agreement.message,
                       agreement.exit_code);
}

void rank_context::commit_together(output_set& outputs) {
  outputs.finish_all();
  require_all_succeeded();
  // A rename that fails from here on (rare: each temporary already sits beside its target) is
  // this rank's alone: the others have committed and wait for nothing.
  close_agreements();
  outputs.commit_all();
}

std::string rank_context::label(std::string_view message) const {
  if (!several()) return std::string(message);
  return "rank " + std::to_string(rank_) + ": " + std::string(message);
}

app_error several_ranks_need_dist(int ranks) {
  return usage_error("launched as " + std::to_string(ranks) +
                     " ranks, but this build has no bkt::dist (NCCL and MPI): run one process");
}

}  // namespace bkt::apps
