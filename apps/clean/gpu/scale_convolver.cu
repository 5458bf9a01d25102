#include "scale_convolver.hpp"

#include <algorithm>

#include "bkt/device/occupancy.cuh"
#include "bkt/error.hpp"
#include "bkt/memory.hpp"
#include "cufft_check.hpp"

namespace bkt::clean::gpu {
namespace {

constexpr int threads = 256;

int grid_for(std::int64_t items) {
  return static_cast<int>(std::clamp<std::int64_t>((items + threads - 1) / threads, 1, multiprocessor_count() * 16));
}

/// out = in with NaN as 0.
__global__ void finite_copy_kernel(const float* in, float* out, std::int64_t count) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < count;
       i += std::int64_t{gridDim.x} * blockDim.x) {
    const float value = in[i];
    out[i] = isnan(value) ? 0.0f : value;
  }
}

/// product = spectrum x kernel.
__global__ void multiply_kernel(const cufftComplex* spectrum, const cufftComplex* kernel, cufftComplex* product,
                                std::int64_t cells) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < cells;
       i += std::int64_t{gridDim.x} * blockDim.x) {
    const cufftComplex a = spectrum[i], b = kernel[i];
    product[i] = make_cuFloatComplex(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
  }
}

}  // namespace

scale_convolver::scale_convolver(std::int64_t width, std::int64_t height, cudaStream_t stream)
    : width_(width),
      height_(height),
      real_(width * height, stream),
      spectrum_(spectrum_cells(), stream),
      product_(spectrum_cells(), stream),
      forward_(height, width, CUFFT_R2C, 1, stream),
      inverse_(height, width, CUFFT_C2R, 1, stream) {}

std::int64_t scale_convolver::device_bytes(std::int64_t width, std::int64_t height) {
  return width * height * std::int64_t{sizeof(float)} + 2 * height * (width / 2 + 1) * std::int64_t{sizeof(cufftComplex)};
}

device_buffer<cufftComplex> scale_convolver::spectrum_of(const std::vector<float>& kernel, std::int64_t kernel_width,
                                                         cudaStream_t stream) {
  std::vector<float> wrapped(static_cast<std::size_t>(width_ * height_), 0.0f);
  const std::int64_t half = kernel_width / 2;
  const float scale = 1.0f / static_cast<float>(static_cast<double>(width_) * static_cast<double>(height_));
  for (std::int64_t dy = -half; dy <= half; ++dy)
    for (std::int64_t dx = -half; dx <= half; ++dx) {
      const std::int64_t x = ((dx % width_) + width_) % width_, y = ((dy % height_) + height_) % height_;
      wrapped[static_cast<std::size_t>(y * width_ + x)] +=
          kernel[static_cast<std::size_t>((dy + half) * kernel_width + dx + half)] * scale;
    }
  BKT_CUDA_CHECK(cudaMemcpyAsync(real_.data(), wrapped.data(), wrapped.size() * sizeof(float), cudaMemcpyHostToDevice,
                                 stream));
  device_buffer<cufftComplex> spectrum(spectrum_cells(), stream);
  BKT_CUFFT_CHECK(cufftExecR2C(forward_.get(), real_.data(), spectrum.data()));
  // `wrapped` is pageable: the copy has finished when cudaMemcpyAsync returns.
  return spectrum;
}

void scale_convolver::forward(const float* in, cudaStream_t stream) {
  finite_copy_kernel<<<grid_for(width_ * height_), threads, 0, stream>>>(in, real_.data(), width_ * height_);
  BKT_CHECK_LAUNCH(stream);
  BKT_CUFFT_CHECK(cufftExecR2C(forward_.get(), real_.data(), spectrum_.data()));
}

void scale_convolver::inverse_times(const cufftComplex* kernel, float* out, cudaStream_t stream) {
  multiply_kernel<<<grid_for(spectrum_cells()), threads, 0, stream>>>(spectrum_.data(), kernel, product_.data(),
                                                                       spectrum_cells());
  BKT_CHECK_LAUNCH(stream);
  BKT_CUFFT_CHECK(cufftExecC2R(inverse_.get(), product_.data(), out));
}

void scale_convolver::convolve(const float* in, const cufftComplex* kernel, float* out, cudaStream_t stream) {
  forward(in, stream);
  inverse_times(kernel, out, stream);
}

}  // namespace bkt::clean::gpu
