#include "fft_convolver.hpp"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "bkt/device/occupancy.cuh"
#include "bkt/error.hpp"
#include "cufft_check.hpp"

namespace bkt::clean::gpu {
namespace {

constexpr int threads = 256;

int grid_for(std::int64_t items) {
  return static_cast<int>(std::clamp<std::int64_t>((items + threads - 1) / threads, 1, multiprocessor_count() * 16));
}

/// kernel[(sy - cy) mod My][(sx - cx) mod Mx] = psf[sy][sx]: the PSF with its centre moved to
/// (0, 0), wrapped. Distinct PSF pixels land on distinct cells since M >= the PSF's extent.
__global__ void wrap_psf_kernel(const float* psf, plane_geometry g, float* kernel, std::int64_t width,
                                std::int64_t height) {
  const std::int64_t cells = std::int64_t{g.psf_width} * g.psf_height;
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < cells;
       i += std::int64_t{gridDim.x} * blockDim.x) {
    const std::int64_t sy = i / g.psf_width, sx = i % g.psf_width;
    const std::int64_t x = (sx - g.psf_centre_x + width) % width, y = (sy - g.psf_centre_y + height) % height;
    kernel[y * width + x] = psf[i];
  }
}

/// spectrum[plane][i] *= psf_spectrum[plane * psf_stride + i] * scale (scale = 1 / (Mx My): cuFFT
/// does not normalise; psf_stride 0 when every plane has the same PSF).
__global__ void multiply_spectra_kernel(cufftComplex* spectrum, const cufftComplex* psf_spectrum, std::int64_t cells,
                                        int planes, std::int64_t psf_stride, float scale) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < cells * planes;
       i += std::int64_t{gridDim.x} * blockDim.x) {
    const cufftComplex a = spectrum[i], b = psf_spectrum[(i / cells) * psf_stride + i % cells];
    spectrum[i] = make_cuFloatComplex((a.x * b.x - a.y * b.y) * scale, (a.x * b.y + a.y * b.x) * scale);
  }
}

/// residual = dirty - convolved over the image (NaN dirty pixels stay as they are).
__global__ void subtract_kernel(const float* dirty, std::int64_t dirty_stride, const float* convolved, float* residual,
                                std::int64_t residual_stride, plane_geometry g, std::int64_t padded_width,
                                std::int64_t padded_cells, int planes) {
  const std::int64_t pixels = g.pixels();
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < pixels * planes;
       i += std::int64_t{gridDim.x} * blockDim.x) {
    const std::int64_t plane = i / pixels, q = i % pixels;
    const std::int64_t y = q / g.width, x = q % g.width;
    const float d = dirty[plane * dirty_stride + q];
    residual[plane * residual_stride + q] =
        isnan(d) ? d : d - convolved[plane * padded_cells + y * padded_width + x];
  }
}

}  // namespace

std::int64_t fft_friendly_size(std::int64_t at_least) {
  for (std::int64_t n = std::max<std::int64_t>(at_least, 1);; ++n) {
    std::int64_t rest = n;
    for (const std::int64_t factor : {2, 3, 5, 7})
      while (rest % factor == 0) rest /= factor;
    if (rest == 1) return n;
  }
}

std::int64_t padded_fft_extent(std::int64_t extent, std::int64_t psf_extent, std::int64_t psf_centre) {
  return fft_friendly_size(std::max({psf_extent - psf_centre + extent - 1, extent + psf_centre, psf_extent}));
}

fft_plan::fft_plan(std::int64_t height, std::int64_t width, cufftType type, int batch, cudaStream_t stream) {
  int sizes[2] = {static_cast<int>(height), static_cast<int>(width)};
  BKT_CUFFT_CHECK(cufftPlanMany(&handle_, 2, sizes, nullptr, 1, 0, nullptr, 1, 0, type, batch));
  owned_ = true;
  BKT_CUFFT_CHECK(cufftSetStream(handle_, stream));
}

fft_plan::fft_plan(fft_plan&& other) noexcept
    : handle_(std::exchange(other.handle_, 0)), owned_(std::exchange(other.owned_, false)) {}

fft_plan& fft_plan::operator=(fft_plan&& other) noexcept {
  std::swap(handle_, other.handle_);
  std::swap(owned_, other.owned_);
  return *this;
}

fft_plan::~fft_plan() {
  // Destructors must not throw: report and carry on.
  if (owned_)
    if (const cufftResult result = cufftDestroy(handle_); result != CUFFT_SUCCESS)
      std::fprintf(stderr, "bkt-clean: cufftDestroy failed: %s\n", cufft_result_name(result));
}

fft_convolver::fft_convolver(const plane_geometry& g, const float* psf, int planes, cudaStream_t stream, int psf_planes,
                             int batch)
    : geometry_(g), planes_(planes), psf_planes_(psf_planes), batch_(batch == 0 ? planes : batch) {
  BKT_EXPECTS(planes >= 1, "fft_convolver: planes < 1");
  BKT_EXPECTS(psf_planes == 1 || psf_planes == planes, "fft_convolver: one PSF, or one per plane");
  BKT_EXPECTS(batch_ >= 1 && planes % batch_ == 0, "fft_convolver: the batch must divide the planes");
  padded_width_ = padded_fft_extent(g.width, g.psf_width, g.psf_centre_x);
  padded_height_ = padded_fft_extent(g.height, g.psf_height, g.psf_centre_y);
  const std::int64_t real_cells = padded_width_ * padded_height_;
  const std::int64_t complex_cells = padded_height_ * (padded_width_ / 2 + 1);
  padded_ = device_buffer<float>(real_cells * batch_, stream);
  spectrum_ = device_buffer<cufftComplex>(complex_cells * batch_, stream);
  psf_spectrum_ = device_buffer<cufftComplex>(complex_cells * psf_planes, stream);

  if (psf != nullptr)
    for (int p = 0; p < psf_planes; ++p) load_psf(p, psf + p * std::int64_t{g.psf_width} * g.psf_height, stream);
  forward_ = fft_plan(padded_height_, padded_width_, CUFFT_R2C, batch_, stream);
  inverse_ = fft_plan(padded_height_, padded_width_, CUFFT_C2R, batch_, stream);
}

void fft_convolver::load_psf(int plane, const float* psf, cudaStream_t stream) {
  BKT_EXPECTS(plane >= 0 && plane < psf_planes_, "fft_convolver: no such PSF plane");
  const plane_geometry& g = geometry_;
  const std::int64_t real_cells = padded_width_ * padded_height_;
  const std::int64_t complex_cells = padded_height_ * (padded_width_ / 2 + 1);
  BKT_CUDA_CHECK(cudaMemsetAsync(padded_.data(), 0, real_cells * sizeof(float), stream));
  wrap_psf_kernel<<<grid_for(std::int64_t{g.psf_width} * g.psf_height), threads, 0, stream>>>(
      psf, g, padded_.data(), padded_width_, padded_height_);
  BKT_CHECK_LAUNCH(stream);
  // A one-plane plan used only here; cuFFT does not promise that destroying a plan waits for its
  // queued work: wait first.
  const fft_plan psf_plan(padded_height_, padded_width_, CUFFT_R2C, 1, stream);
  BKT_CUFFT_CHECK(cufftExecR2C(psf_plan.get(), padded_.data(), psf_spectrum_.data() + plane * complex_cells));
  BKT_CUDA_CHECK(cudaStreamSynchronize(stream));
}

std::int64_t fft_convolver::device_bytes(const plane_geometry& g, int psf_planes, int batch) {
  const std::int64_t width = padded_fft_extent(g.width, g.psf_width, g.psf_centre_x);
  const std::int64_t height = padded_fft_extent(g.height, g.psf_height, g.psf_centre_y);
  const std::int64_t complex_cells = height * (width / 2 + 1);
  return batch * (width * height * std::int64_t{sizeof(float)} + complex_cells * std::int64_t{sizeof(cufftComplex)}) +
         psf_planes * complex_cells * std::int64_t{sizeof(cufftComplex)};
}

void fft_convolver::subtract_convolved(const float* dirty, const float* model, float* residual, cudaStream_t stream) {
  for (int first = 0; first < planes_; first += batch_)
    subtract_group(dirty, model, residual, geometry_.pixels(), geometry_.pixels(), geometry_.padded_pixels(), first,
                   stream);
}

void fft_convolver::subtract_convolved(const float* dirty, const float* model, float* residual, std::int64_t stride,
                                       cudaStream_t stream) {
  for (int first = 0; first < planes_; first += batch_)
    subtract_group(dirty, model, residual, stride, stride, stride, first, stream);
}

void fft_convolver::subtract_group(const float* dirty, const float* model, float* residual, std::int64_t dirty_stride,
                                   std::int64_t model_stride, std::int64_t residual_stride, int first,
                                   cudaStream_t stream) {
  const plane_geometry& g = geometry_;
  const std::int64_t real_cells = padded_width_ * padded_height_;
  const std::int64_t complex_cells = padded_height_ * (padded_width_ / 2 + 1);
  BKT_CUDA_CHECK(cudaMemsetAsync(padded_.data(), 0, padded_.size_bytes(), stream));
  for (int plane = 0; plane < batch_; ++plane)
    BKT_CUDA_CHECK(cudaMemcpy2DAsync(padded_.data() + plane * real_cells, padded_width_ * sizeof(float),
                                     model + (first + plane) * model_stride, g.width * sizeof(float),
                                     g.width * sizeof(float), g.height, cudaMemcpyDeviceToDevice, stream));
  BKT_CUFFT_CHECK(cufftExecR2C(forward_.get(), padded_.data(), spectrum_.data()));
  const std::int64_t psf_stride = psf_planes_ == 1 ? 0 : complex_cells;
  multiply_spectra_kernel<<<grid_for(complex_cells * batch_), threads, 0, stream>>>(
      spectrum_.data(), psf_spectrum_.data() + first * psf_stride, complex_cells, batch_, psf_stride,
      1.0f / static_cast<float>(real_cells));
  BKT_CHECK_LAUNCH(stream);
  BKT_CUFFT_CHECK(cufftExecC2R(inverse_.get(), spectrum_.data(), padded_.data()));
  subtract_kernel<<<grid_for(std::int64_t{g.pixels()} * batch_), threads, 0, stream>>>(
      dirty + first * dirty_stride, dirty_stride, padded_.data(), residual + first * residual_stride, residual_stride, g,
      padded_width_, real_cells, batch_);
  BKT_CHECK_LAUNCH(stream);
}

}  // namespace bkt::clean::gpu
