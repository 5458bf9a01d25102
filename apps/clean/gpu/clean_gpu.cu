// clean_gpu (deconvolve.hpp): Högbom or Clark on the GPU.
#include "deconvolve.hpp"
#include "bkt/error.hpp"
#include "gpu_paths.hpp"

namespace bkt::clean {

clean_result clean_gpu(const image& dirty, const image& psf, const clean_params& params, cudaStream_t stream) {
  switch (params.method) {
    case algorithm::hogbom: return gpu::hogbom_gpu(dirty, psf, params, stream);
    case algorithm::clark: return gpu::clark_gpu(dirty, psf, params, stream);
  }
  detail::throw_precondition("clean_gpu: unknown algorithm", __FILE__, __LINE__);
}

}  // namespace bkt::clean
