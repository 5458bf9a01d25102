// The joint engine's image-wide steps on the GPU (gpu/joint_gpu_backend.cu runs them): the
// integrated residual, a scale's peak over its allowed pixels, the sub-minor loop's candidates,
// and folding the loop's components back into the models. Channel planes lie `stride` floats
// apart; the allowed pixels are a byte per pixel (the user's mask without any channel's NaN), and
// a scale's auto-mask another, or nullptr.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace bkt::clean::gpu {

/// The region a scale may take components in.
struct scale_region {
  std::int32_t width = 0, height = 0;
  std::int32_t border = 0;                // pixels kept from every edge
  const std::uint8_t* allowed = nullptr;  // 1 per pixel that may
  const std::uint8_t* mask = nullptr;     // the scale's auto-mask, or nullptr (off)
};

/// out[q] = sum_c shares[c] x planes[c][q] (fmaf in channel order, as the CPU path sums).
void integrate_channels(const float* planes, std::int64_t stride, const float* shares, int channels,
                        std::int64_t pixels, float* out, cudaStream_t stream);

/// *peak = max over the region's pixels of pack_peak(values[q], q) (no_peak when none); *peak is
/// reset first.
void find_region_peak(const float* values, const scale_region& region, std::uint64_t* peak, cudaStream_t stream);

/// keys[q] = pack_peak(J, q) where q is in the region and |J| >= level, J = sum_c shares[c] x
/// planes[c][q]; else no_peak.
void pack_joint_keys(const float* planes, std::int64_t stride, const float* shares, int channels,
                     const scale_region& region, float level, std::uint64_t* keys, cudaStream_t stream);

/// The sub-minor loop's candidates, in key order: x, y and each channel's value (values[c * capacity + i]),
/// taken from the selected keys; their models set to 0.
void gather_candidates(const std::uint64_t* keys, std::int64_t count, std::int32_t width, const float* planes,
                       std::int64_t stride, int channels, std::int64_t capacity, std::int32_t* x, std::int32_t* y,
                       float* values, float* models, cudaStream_t stream);

/// planes[c][y_i * width + x_i] += models[c * capacity + i] for every candidate (distinct pixels).
void scatter_candidates(const std::int32_t* x, const std::int32_t* y, const float* models, std::int64_t count,
                        int channels, std::int64_t capacity, std::int32_t width, float* planes, std::int64_t stride,
                        cudaStream_t stream);

/// mask[y_i * width + x_i] = 1 for every candidate that took flux in some channel.
void mark_candidates(const std::int32_t* x, const std::int32_t* y, const float* models, std::int64_t count,
                     int channels, std::int64_t capacity, std::int32_t width, std::uint8_t* mask, cudaStream_t stream);

/// out (width x height) = the psf's pixels around its centre, the centre at (width / 2, height / 2)
/// (0 beyond the PSF).
void crop_psf(const float* psf, std::int32_t psf_width, std::int32_t psf_height, std::int32_t centre_x,
              std::int32_t centre_y, std::int32_t width, std::int32_t height, float* out, cudaStream_t stream);

/// plane[y][x] *= loop_taper(x, y, width, height) (joint/loop_taper.hpp).
void taper_loop_psf(float* plane, std::int32_t width, std::int32_t height, cudaStream_t stream);

/// target[i] += add[i].
void add_planes(float* target, const float* add, std::int64_t count, cudaStream_t stream);

/// out[i] = |in[i] - *centre|.
void absolute_deviations(const float* in, const float* centre, std::int64_t count, float* out, cudaStream_t stream);

}  // namespace bkt::clean::gpu
