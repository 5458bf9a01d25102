// The PSF beyond Clark's minor-cycle patch: how large it gets (which sizes the minor cycle's error
// budget) and the exact correction of the candidates for a batch of components (which spends it).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "hogbom_state.hpp"
#include "plane_geometry.hpp"

namespace bkt::clean::gpu {

/// The largest |psf| at the offsets a component can reach (|dx| < width, |dy| < height) outside
/// the patch (|dx| <= patch_half and |dy| <= patch_half); 0 when the patch covers them all.
/// `psf`: device memory, g.psf_width x g.psf_height. Waits for `stream`.
float exterior_sidelobe_sync(const float* psf, const plane_geometry& g, int patch_half, cudaStream_t stream);

/// For each candidate j (keys[j] names its pixel) and each component i of components[0, num) in
/// order: values[j] = fmaf(-flux_i, psf[pixel_j - pixel_i + centre], values[j]) where that offset
/// lies outside the patch and inside the PSF. With the patch's own subtractions (clark_minor.hpp)
/// this makes values[j] the residual the whole PSF leaves. Asynchronous.
void correct_beyond_patch(const std::uint64_t* keys, float* values, std::int32_t count,
                          const component_record* components, std::int32_t num, const float* psf,
                          const plane_geometry& g, int patch_half, cudaStream_t stream);

}  // namespace bkt::clean::gpu
