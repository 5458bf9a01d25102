// The joint engine's steps on the GPU (joint/joint_clean.hpp): exact residuals by zero-padded
// cuFFT transforms with each channel's PSF, the scales' convolutions by transforms at the image's
// size, candidates chosen with the library's compaction, the sub-minor loop as one launch per
// component (sub_minor_loop.hpp), and the noise by the library's select_kth. The images stay on
// the device for the whole run; the host sees a few numbers per step.
#pragma once

#include <cuda_runtime_api.h>
#include <cufft.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "bkt/device_buffer.hpp"
#include "bkt/workspace.hpp"
#include "fft_convolver.hpp"
#include "joint/joint_clean.hpp"
#include "scale_convolver.hpp"
#include "sub_minor_loop.hpp"

namespace bkt::clean::gpu {

/// The device bytes a joint run of these channels and scales holds at its peak (the memory plan).
std::int64_t joint_device_bytes(const channel_set& channels, const joint_params& params, std::size_t scale_count);

class joint_gpu_backend final : public joint_backend {
 public:
  /// Uploads the channels; refuses (bkt::error, out of memory) a run whose plan exceeds the
  /// device's free memory. `channels` and `scales` must outlive the backend.
  joint_gpu_backend(const channel_set& channels, const joint_params& params, const std::vector<scale_info>& scales,
                    cudaStream_t stream);

  void update_residuals() override;
  double integrated_sigma() override;
  std::vector<scale_peak> find_peaks(const std::vector<int>& scales, bool mask_on) override;
  sub_minor_outcome run_sub_minor(const sub_minor_request& request, bool mask_on, joint_result& result) override;
  void fetch(joint_result& result) override;

 private:
  struct scale_region region_of(int scale, bool mask_on) const;
  const cufftComplex* spectrum_of_scale(int scale);
  void prepare_sub_minor_psfs(int scale);
  std::int64_t select_candidates(int scale, double threshold, bool mask_on);
  void add_to_models(int scale, std::int64_t count);

  const channel_set& channels_;
  const std::vector<scale_info>& scales_;
  cudaStream_t stream_;
  std::int64_t width_, height_, pixels_;
  int channels_count_;
  std::int64_t psf_width_, psf_height_;
  int spectral_terms_ = 0;
  workspace ws_;
  device_buffer<float> dirty_, model_, residual_, convolved_;  // channels x pixels each
  device_buffer<float> crop_;      // channels x pixels: each PSF's central image-sized part
  device_buffer<float> sub_psf_;   // channels x pixels: crop (*) k (*) k at sub_psf_scale_
  int sub_psf_scale_ = -1;
  device_buffer<float> integrated_, scratch_;
  device_buffer<std::uint8_t> allowed_;
  std::vector<device_buffer<std::uint8_t>> masks_;  // per scale, with --auto-mask
  device_buffer<std::uint64_t> keys_, selected_;
  device_buffer<float> shares_;
  device_buffer<double> abscissae_, weights_;
  device_buffer<float> flux_;
  device_buffer<std::uint64_t> peaks_;
  device_buffer<std::int64_t> count_;
  device_buffer<float> statistics_;  // select_kth's results
  std::int64_t capacity_ = 0;         // candidate arrays
  device_buffer<std::int32_t> candidate_x_, candidate_y_;
  device_buffer<float> candidate_values_, candidate_models_;
  std::int64_t record_capacity_ = 0;
  device_buffer<std::int32_t> record_x_, record_y_;
  device_buffer<float> record_flux_;
  std::optional<fft_convolver> exact_;
  std::optional<scale_convolver> scale_convolver_;
  bool cache_spectra_ = true;
  std::vector<std::optional<device_buffer<cufftComplex>>> spectra_;
  device_buffer<cufftComplex> spectrum_now_;  // the one in use when not cached
  std::optional<sub_minor_loop> loop_;
};

}  // namespace bkt::clean::gpu
