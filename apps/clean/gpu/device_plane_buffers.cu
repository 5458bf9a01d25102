#include "device_plane_buffers.hpp"

#include "bkt/error.hpp"

namespace bkt::clean::gpu {

std::vector<std::uint32_t> candidate_bits_of(const std::vector<std::uint8_t>& mask, const plane_geometry& g) {
  std::vector<std::uint32_t> bits((static_cast<std::size_t>(g.padded_pixels()) + 31) / 32, 0u);
  for (std::size_t q = 0; q < mask.size(); ++q)
    if (mask[q] == 1) bits[q / 32] |= 1u << (q % 32);
  return bits;
}

device_plane_buffers::device_plane_buffers(const image& dirty, const image& psf, const std::vector<std::uint8_t>& mask,
                                           const plane_geometry& geometry, cudaStream_t stream)
    : geometry_(geometry), residual_(geometry.padded_pixels(), stream), psf_(psf.size(), stream) {
  const std::size_t pixels = static_cast<std::size_t>(geometry.pixels());
  if (pixels > 0)
    BKT_CUDA_CHECK(cudaMemcpyAsync(residual_.data(), dirty.pixels.data(), pixels * sizeof(float),
                                   cudaMemcpyHostToDevice, stream));
  // Padding: all-ones bytes are a NaN, never a candidate and never updated.
  const std::size_t padding = static_cast<std::size_t>(geometry.padded_pixels()) - pixels;
  if (padding > 0) BKT_CUDA_CHECK(cudaMemsetAsync(residual_.data() + pixels, 0xff, padding * sizeof(float), stream));
  if (!psf.pixels.empty())
    BKT_CUDA_CHECK(cudaMemcpyAsync(psf_.data(), psf.pixels.data(), psf.pixels.size() * sizeof(float),
                                   cudaMemcpyHostToDevice, stream));
  if (!mask.empty()) {
    const std::vector<std::uint32_t> bits = candidate_bits_of(mask, geometry);
    candidate_bits_ = device_buffer<std::uint32_t>(static_cast<std::int64_t>(bits.size()), stream);
    BKT_CUDA_CHECK(cudaMemcpyAsync(candidate_bits_.data(), bits.data(), bits.size() * sizeof(std::uint32_t),
                                   cudaMemcpyHostToDevice, stream));
    // `bits` dies here: wait for the copy (pageable copies are staged before returning, but do not
    // rely on it).
    BKT_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
}

device_plane device_plane_buffers::plane() {
  device_plane p;
  p.residual = residual_.data();
  p.psf = psf_.data();
  p.candidate_bits = candidate_bits_.empty() ? nullptr : candidate_bits_.data();
  p.geometry = geometry_;
  return p;
}

}  // namespace bkt::clean::gpu
