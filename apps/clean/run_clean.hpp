// One bkt-clean run from parsed options to written outputs.
#pragma once

#include "bkt_apps/output_set.hpp"
#include "bkt_apps/ranks.hpp"
#include "options.hpp"
#include "summary.hpp"

namespace bkt::clean {

/// Reads the inputs, deconvolves each selected plane (clean_gpu on its own stream when
/// bkt::apps::use_gpu, else clean_cpu; with --multiscale or --join-channels the joint engine,
/// through run_joint_path in joint_run.hpp), restores, and writes every output into `outputs`
/// (created there before the inputs are read; the caller's commit_all() shows them); returns the
/// summary.
/// Throws bkt::apps::app_error for bad input and I/O, bkt::error for CUDA failures.
/// Collective under mpirun: every rank reads the inputs and deconvolves its share of the planes
/// (plane_ranks.hpp); rank 0 gathers them, restores and writes, the others create no output and
/// return a summary without the restoring step.
run_summary run_clean(const options& opts, bkt::apps::output_set& outputs, bkt::apps::rank_context& ranks);

}  // namespace bkt::clean
