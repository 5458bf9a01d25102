// The joint engine's steps on the CPU (joint/joint_clean.hpp): exact residuals by zero-padded FFTs
// per channel, the scales' convolutions by FFTs at the image's size, and the sub-minor loop over
// a candidate list; channels run on threads side by side. Also the tests' reference for the GPU.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "cpu/circular_convolver.hpp"
#include "cpu/padded_convolver.hpp"
#include "joint/joint_clean.hpp"
#include "joint/spectral_fit.hpp"

namespace bkt::clean::cpu {

class joint_cpu_backend final : public joint_backend {
 public:
  /// `channels` and `scales` must outlive the backend.
  joint_cpu_backend(const channel_set& channels, const joint_params& params, const std::vector<scale_info>& scales);

  void update_residuals() override;
  double integrated_sigma() override;
  std::vector<scale_peak> find_peaks(const std::vector<int>& scales, bool mask_on) override;
  sub_minor_outcome run_sub_minor(const sub_minor_request& request, bool mask_on, joint_result& result) override;
  void fetch(joint_result& result) override;

 private:
  /// A PSF the sub-minor loop reads: its pixels, size and centre.
  struct psf_view {
    const float* pixels = nullptr;
    std::int64_t width = 0, height = 0, centre_x = 0, centre_y = 0;
  };
  struct candidates;

  std::vector<float> integrated_residual() const;
  bool allowed(std::int64_t x, std::int64_t y, int scale, bool mask_on) const;
  const kernel_spectrum& spectrum_of_scale(int scale);
  void prepare_sub_minor_psfs(int scale);
  candidates select_candidates(int scale, double threshold, bool mask_on);
  void add_to_models(int scale, const candidates& list, const std::vector<std::vector<float>>& taken);

  const channel_set& channels_;
  const std::vector<scale_info>& scales_;
  std::int64_t width_, height_, channels_count_;
  int workers_;
  std::vector<float> shares_;  // w_c / sum w, the integrated image's weights
  std::vector<double> abscissae_;
  spectral_fit_setup fit_;
  std::vector<std::uint8_t> allowed_;             // the user's mask, no channel NaN
  std::vector<std::vector<std::uint8_t>> scale_masks_;  // --auto-mask: per scale, pixels holding its components
  std::vector<image> models_, residuals_;
  std::vector<padded_convolver> exact_;            // per channel: model (*) psf
  std::optional<circular_convolver> circular_;     // the scales' convolutions
  std::vector<std::optional<kernel_spectrum>> scale_spectra_;
  std::vector<circular_convolver::work> works_;    // per channel
  std::vector<circular_convolver::work> scale_works_;  // per scale of a find_peaks call
  std::vector<std::vector<float>> crops_;          // per channel: the PSF's central image-sized part
  int sub_minor_scale_ = -1;                       // the scale sub_minor_psfs_ are for
  std::vector<std::vector<float>> sub_minor_psfs_; // per channel: crop (*) k (*) k
  std::vector<std::vector<float>> convolved_;      // per channel: residual (*) k at the loop's scale
};

}  // namespace bkt::clean::cpu
