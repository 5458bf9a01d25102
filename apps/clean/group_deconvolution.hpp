// A joint run's channels deconvolved group by group, one engine run each (all channels together
// when joined, else one by one): each channel restored with its own beam (fitted to its PSF, or
// --beam), joined channels' MFS images made, and the images, figures and components gathered.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bkt_apps/progress.hpp"
#include "io/component_list.hpp"
#include "io/joint_inputs.hpp"
#include "io/joint_outputs.hpp"
#include "io/sky_wcs.hpp"
#include "joint_summary.hpp"
#include "options.hpp"

namespace bkt::clean {

/// The channels of each engine run: every channel with a pixel that is not NaN, all together when
/// `join`, else one by one.
std::vector<std::vector<std::size_t>> engine_groups(const joint_inputs& inputs, bool join);

class group_deconvolution {
 public:
  /// Sets the blank channels aside (model 0, residual and image the dirty image, with a note).
  /// `verbose` takes --verbose's lines. Throws app_error for --beam without a celestial WCS.
  group_deconvolution(const options& opts, const joint_inputs& inputs, bool on_gpu, cudaStream_t stream,
                      std::function<void(const std::string&)> verbose);

  /// One engine run over the input channels `members`; joined runs count their major cycles on
  /// `progress`. Throws as prepare_psf, fit_beam and the engine do.
  void deconvolve(const std::vector<std::size_t>& members, bkt::apps::progress_bar& progress);

  joint_images& images() { return images_; }
  joint_summary& summary() { return joint_; }
  const std::vector<scaled_component>& components() const { return components_; }
  const std::vector<std::string>& notes() const { return notes_; }
  const sky_wcs& wcs() const { return wcs_; }
  const std::optional<pixel_scale>& scale() const { return scale_; }
  double clean_seconds() const { return clean_seconds_; }
  double restore_seconds() const { return restore_seconds_; }

 private:
  joint_params params_for(const channel_input& first) const;
  beam restoring_beam(const image& psf, const std::string& name) const;
  void make_mfs(const channel_set& set, const std::vector<std::size_t>& members);

  const options& opts_;
  const joint_inputs& inputs_;
  const sky_wcs wcs_;
  const std::optional<pixel_scale> scale_;
  const bool on_gpu_;
  const cudaStream_t stream_;
  const std::function<void(const std::string&)> verbose_;
  joint_images images_;
  joint_summary joint_;
  std::vector<scaled_component> components_;
  std::vector<std::string> notes_;
  double clean_seconds_ = 0, restore_seconds_ = 0;
};

}  // namespace bkt::clean
