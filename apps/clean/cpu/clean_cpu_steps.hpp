// The two CLEAN loops of the CPU path; clean_cpu (clean_cpu.cpp) checks the inputs and picks one.
#pragma once

#include "image.hpp"

namespace bkt::clean::cpu {

/// Högbom's CLEAN exactly as deconvolve.hpp states it. Inputs already checked.
clean_result hogbom_cpu(const image& dirty, const image& psf, const clean_params& params);

/// Clark's CLEAN (see clark_cpu.cpp for its cutoffs). Inputs already checked.
clean_result clark_cpu(const image& dirty, const image& psf, const clean_params& params);

}  // namespace bkt::clean::cpu
