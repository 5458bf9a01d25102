// The two GPU deconvolutions behind clean_gpu (clean_gpu.cu checks the arguments and picks one).
#pragma once

#include <cuda_runtime_api.h>

#include <span>

#include "image.hpp"
#include "hogbom_state.hpp"

namespace bkt::clean::gpu {

/// Högbom on the GPU; component list identical to clean_cpu's (deconvolve.hpp).
clean_result hogbom_gpu(const image& dirty, const image& psf, const clean_params& params, cudaStream_t stream);

/// Clark on the GPU: FFT major cycles, single-block minor cycles over the brightest pixels.
clean_result clark_gpu(const image& dirty, const image& psf, const clean_params& params, cudaStream_t stream);

/// result.components from the device records, in the order taken (x = index % width).
void append_components(clean_result& result, std::span<const component_record> records, std::int64_t width);

/// The model as the CPU path builds it: model[p] += flux in float, component by component.
image model_of(const std::vector<component>& components, std::int64_t width, std::int64_t height);

}  // namespace bkt::clean::gpu
