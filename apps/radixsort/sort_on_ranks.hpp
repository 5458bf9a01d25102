// The run under mpirun -np N: every rank reads its own part of the input file, bkt::dist sorts
// the parts as one sequence across the ranks' GPUs (NCCL), and every rank writes its slice of the
// result at its offset of the one output file, which appears only once every rank has succeeded.
#pragma once

#include "bkt_apps/output_file.hpp"
#include "bkt_apps/ranks.hpp"
#include "options.hpp"
#include "sort_file.hpp"

namespace bkt::radixsort {

/// Collective. `sorted` is the output on rank 0 and nullptr on the others; the caller commits it
/// with ranks.commit_together(). The report of rank 0 holds every rank's phases. Throws app_error
/// (bad input on this rank's part, I/O, usage) or bkt::error (GPU, NCCL).
sort_report sort_on_ranks(const options& parsed, apps::output_file* sorted, apps::rank_context& ranks);

}  // namespace bkt::radixsort
