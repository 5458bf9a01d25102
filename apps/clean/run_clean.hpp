// One bkt-clean run from parsed options to written outputs.
#pragma once

#include "options.hpp"
#include "summary.hpp"

namespace bkt::clean {

/// Reads the inputs, deconvolves each selected plane (clean_gpu on its own stream when
/// bkt::apps::use_gpu, else clean_cpu), restores, and writes every output; returns the summary.
/// Throws bkt::apps::app_error for bad input and I/O, bkt::error for CUDA failures.
run_summary run_clean(const options& opts);

}  // namespace bkt::clean
