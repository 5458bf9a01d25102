// Högbom from host images: upload, run the device loop (hogbom_loop.hpp), download, and build the
// model from the component list exactly as the CPU path does.
#include "gpu_paths.hpp"

#include "bkt/error.hpp"
#include "device_plane_buffers.hpp"
#include "hogbom_loop.hpp"
#include "plane_geometry.hpp"

namespace bkt::clean::gpu {

void append_components(clean_result& result, std::span<const component_record> records, std::int64_t width) {
  result.components.reserve(result.components.size() + records.size());
  for (const component_record& r : records)
    result.components.push_back({static_cast<std::int64_t>(r.index) % width, static_cast<std::int64_t>(r.index) / width,
                                 static_cast<double>(r.flux)});
}

image model_of(const std::vector<component>& components, std::int64_t width, std::int64_t height) {
  image model{width, height, std::vector<float>(static_cast<std::size_t>(width * height), 0.0f)};
  for (const component& c : components) model.at(c.x, c.y) += static_cast<float>(c.flux);
  return model;
}

clean_result hogbom_gpu(const image& dirty, const image& psf, const clean_params& params, cudaStream_t stream) {
  const plane_geometry geometry = make_geometry(dirty, psf, params);
  clean_result result;
  result.major_cycles = 0;
  if (geometry.pixels() == 0) {
    result.model = image{dirty.width, dirty.height, {}};
    result.residual = dirty;
    result.reason = stop_reason::no_pixels;
    return result;
  }
  device_plane_buffers buffers(dirty, psf, params.mask, geometry, stream);
  hogbom_runner runner(buffers.plane(), rules_of(params), stream);
  const hogbom_outcome outcome = runner.run_sync(stream);

  result.residual = image{dirty.width, dirty.height, std::vector<float>(static_cast<std::size_t>(geometry.pixels()))};
  BKT_CUDA_CHECK(cudaMemcpyAsync(result.residual.pixels.data(), buffers.residual(),
                                 result.residual.pixels.size() * sizeof(float), cudaMemcpyDeviceToHost, stream));
  BKT_CUDA_CHECK(cudaStreamSynchronize(stream));
  append_components(result, outcome.components, dirty.width);
  result.model = model_of(result.components, dirty.width, dirty.height);
  result.iterations = static_cast<std::int64_t>(result.components.size());
  result.reason = outcome.reason;
  result.peak_residual = outcome.peak;
  return result;
}

}  // namespace bkt::clean::gpu
