// What a run through the joint engine (--multiscale, --join-channels) reports, beyond what every
// run does (summary.hpp): each engine run's scales and cycles, each channel's figures and beam,
// and the MFS images'.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "deconvolve.hpp"
#include "io/beam_geometry.hpp"
#include "joint/joint_clean.hpp"
#include "noise_cycles.hpp"

namespace bkt::clean {

struct run_summary;

/// One engine run: every joined channel, or one plane of a cube cleaned alone.
struct joint_run_figures {
  std::vector<std::int64_t> channels;     // the input channels it deconvolved
  std::vector<double> scales;             // pixels
  std::vector<scale_totals> per_scale;
  std::vector<unsampled_scale> scales_left_out;  // the PSF does not sample them (scale_kernels.hpp)
  std::vector<noise_cycle> cycles;        // one per major cycle (noise_cycles.hpp's shape)
  std::int64_t iterations = 0, major_cycles = 0, minor_loops = 0;
  stop_reason reason = stop_reason::niter;
  double peak_residual = 0;               // the engine's last (scale-biased) peak
  double threshold = 0;                   // the level it stopped at (the last cycle's)
  std::optional<double> noise_sigma;      // the last cycle's noise, when measured
  double beam_fwhm = 0;                   // pixels: the automatic scales' reference
};

/// An image's figures after the run: a channel's or the MFS image's.
struct image_figures {
  double model_flux = 0;                  // the model's sum (Jy for a Jy/beam image)
  double residual_rms = 0;                // over the pixels that are not NaN
  double residual_sigma = 0;              // 1.4826 x MAD of the residual
  std::optional<beam> restoring_beam;     // pixels; nullopt for a blank channel
  std::optional<sky_beam> restoring_sky_beam;
  std::string beam_source;                // "fitted", "given", "fitted to NAME-MFS-psf.fits", ...
};

struct channel_figures : image_figures {
  std::int64_t channel = 0;               // 0-based, in input order (a cube's plane number)
  std::string name;                       // its file, or "CUBE plane N"
  std::optional<double> frequency_hz;
  double weight = 1;                      // its share of the integrated image (WSCIMGWG, else 1)
  bool skipped = false;                   // every pixel NaN: left out, written as it came
};

struct joint_summary {
  bool joined = false;                    // --join-channels
  bool from_channel_files = false;        // NAME-000N-*.fits, else a cube (or one image)
  scale_shape shape = scale_shape::gaussian;
  int spectral_terms = 0;                 // --fit-spectral-pol
  std::optional<double> reference_frequency_hz;  // the weighted mean frequency
  std::vector<joint_run_figures> runs;
  std::vector<channel_figures> channels;
  std::optional<image_figures> mfs;       // joined channels: the weighted means
};

/// The one-screen summary of a joint run (format_summary's, when run_summary::joint is set).
std::string format_joint_summary(const run_summary& summary);

/// The same as JSON (summary_json's): the totals and, for a single engine run, its scales and
/// noise_cycles at the top level; "runs", "channels" and "mfs" in full.
nlohmann::json joint_summary_json(const run_summary& summary);

}  // namespace bkt::clean
