// One bkt-clean run through the joint engine (joint/joint_clean.hpp): --join-channels (the
// channels of a cube, or WSClean's per-channel files by name, deconvolved together) or
// --multiscale (each plane alone, as a joint run of one channel).
#pragma once

#include "bkt_apps/output_set.hpp"
#include "bkt_apps/ranks.hpp"
#include "options.hpp"
#include "summary.hpp"

namespace bkt::clean {

/// Finds and reads the inputs (io/joint_inputs.hpp), deconvolves the channels, restores each with
/// its own beam (fitted to its PSF, or --beam), makes the MFS images of joined channels (the
/// weighted means of the models and residuals; the MFS model restored with the MFS beam, fitted
/// to NAME-MFS-psf.fits or to the integrated PSF, plus the MFS residual), and writes every output
/// into `outputs` (io/joint_outputs.hpp), made before the inputs are read. One process: under
/// mpirun with several ranks it refuses (usage error). Throws bkt::apps::app_error for bad input
/// and I/O, bkt::error for CUDA failures.
run_summary run_joint_path(const options& opts, bkt::apps::output_set& outputs, bkt::apps::rank_context& ranks);

}  // namespace bkt::clean
