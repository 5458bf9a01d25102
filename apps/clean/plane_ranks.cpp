// gather_planes_to_root over NCCL: each plane's model and residual go from its rank's GPU to rank
// 0's (one grouped send and receive per plane, staged through device memory), then to the host.
#include "plane_ranks.hpp"

#include <cuda_runtime_api.h>
#include <nccl.h>

#include "bkt/device_buffer.hpp"
#include "bkt/dist/communicator.hpp"
#include "bkt/dist/error.hpp"
#include "bkt/error.hpp"
#include "bkt/stream.hpp"

namespace bkt::clean {

void gather_planes_to_root(std::vector<plane_images>& images, std::vector<plane_summary>& summaries,
                           std::int64_t width, std::int64_t height, bkt::apps::rank_context& ranks) {
  gather_plane_summaries(summaries, ranks);
  const dist::communicator comm(MPI_COMM_WORLD);
  const owned_stream stream;
  const std::int64_t pixels = width * height;
  device_buffer<float> staging(2 * pixels, stream.get());
  const std::size_t image_bytes = static_cast<std::size_t>(pixels) * sizeof(float);
  for (std::size_t i = 0; i < images.size(); ++i) {
    const int owner = plane_owner(i, ranks);
    if (owner == 0 || (ranks.rank() != owner && !ranks.is_root())) continue;
    plane_images& plane = images[i];
    if (ranks.rank() == owner) {
      BKT_CUDA_CHECK(cudaMemcpyAsync(staging.data(), plane.model.pixels.data(), image_bytes, cudaMemcpyHostToDevice,
                                     stream.get()));
      BKT_CUDA_CHECK(cudaMemcpyAsync(staging.data() + pixels, plane.residual.pixels.data(), image_bytes,
                                     cudaMemcpyHostToDevice, stream.get()));
      BKT_NCCL_CHECK(comm.rank(), ncclSend(staging.data(), static_cast<std::size_t>(2 * pixels), ncclFloat32, 0,
                                           comm.nccl(), stream.get()));
      BKT_CUDA_CHECK(cudaStreamSynchronize(stream.get()));  // the staging buffer is reused by the next plane
      continue;
    }
    BKT_NCCL_CHECK(comm.rank(), ncclRecv(staging.data(), static_cast<std::size_t>(2 * pixels), ncclFloat32, owner,
                                         comm.nccl(), stream.get()));
    plane.plane = summaries[i].plane;
    for (image* part : {&plane.model, &plane.residual}) {
      part->width = width;
      part->height = height;
      part->pixels.resize(static_cast<std::size_t>(pixels));
    }
    BKT_CUDA_CHECK(cudaMemcpyAsync(plane.model.pixels.data(), staging.data(), image_bytes, cudaMemcpyDeviceToHost,
                                   stream.get()));
    BKT_CUDA_CHECK(cudaMemcpyAsync(plane.residual.pixels.data(), staging.data() + pixels, image_bytes,
                                   cudaMemcpyDeviceToHost, stream.get()));
    BKT_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
  }
}

}  // namespace bkt::clean
