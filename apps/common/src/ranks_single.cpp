// The rank layer of a build without MPI: one rank, every collective trivial. A launch with
// several ranks is refused, since each would run the whole job and write the same outputs.
#include <cstdlib>

#include "bkt_apps/ranks.hpp"

namespace bkt::apps {

bool built_with_mpi() noexcept { return false; }

rank_context::rank_context() {
  const launch_environment launch = read_launch_environment(std::getenv);
  if (launch.size && *launch.size > 1)
    throw usage_error("launched as " + std::to_string(*launch.size) +
                      " ranks, but this build has no MPI: configure it where find_package(MPI) succeeds, "
                      "or run one process");
}

rank_context::~rank_context() = default;

rank_agreement rank_context::all_succeeded(bool ok, const std::string& message, int exit_code) {
  if (ok) return {};
  close_agreements();
  return {false, 0, message, exit_code};
}

void rank_context::barrier() {}

std::vector<std::string> rank_context::gather_to_root(const std::string& text) { return {text}; }

std::string rank_context::broadcast_from_root(const std::string& text) { return text; }

std::vector<std::int64_t> rank_context::all_gather(std::int64_t value) { return {value}; }

std::vector<std::string> rank_context::all_gather(const std::string& bytes) { return {bytes}; }

void rank_context::abort_job(int) noexcept {}

}  // namespace bkt::apps
