// bkt-clean's command line: the inputs (an image and its PSF, a cube, or WSClean's per-channel
// files by name), the output prefix, the deconvolution's settings in the names WSClean users know,
// and what else to write.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>

#include "bkt_apps/cli.hpp"
#include "image.hpp"
#include "io/beam_geometry.hpp"
#include "io/clean_inputs.hpp"
#include "joint/scale_kernels.hpp"

namespace bkt::clean {

/// WSClean's multiscale defaults but for the shape: WSClean cleans with Gaussian scales whenever it
/// writes a source list (its components are then Gaussians), and bkt-clean always writes one.
inline multiscale_settings default_multiscale_settings() {
  multiscale_settings settings;
  settings.shape = scale_shape::gaussian;
  return settings;
}

struct options {
  std::string dirty_path;  // DIRTY.fits, or with --join-channels the NAME of NAME-0000-dirty.fits, ...
  std::string psf_path;    // PSF.fits, or empty with --psf-beam (or channel files by name)
  bool psf_from_beam = false;  // --psf-beam: the PSF is the Gaussian of DIRTY's BMAJ/BMIN/BPA
  std::string prefix;      // --prefix P: P-model.fits, P-residual.fits, ...
  bkt::apps::common_flags common;  // --cpu, --json FILE, --verbose, --version

  algorithm method = algorithm::hogbom;
  std::int64_t niter = 1000;
  double gain = 0.1;
  double mgain = 0.8;
  double threshold = 0;                   // image units (Jy/beam)
  std::optional<double> auto_threshold;   // --auto-threshold SIGMA: SIGMA x the residual's MAD noise, per cycle
  std::optional<double> auto_mask;        // --auto-mask SIGMA: unmasked down to SIGMA x noise, then in a mask
  std::string mask_path;                  // --mask FILE: nonzero pixels may take components
  std::optional<pixel_box> mask_box;      // --mask-box X0,Y0,X1,Y1
  std::optional<sky_beam> beam;           // --beam BMAJ,BMIN,BPA (stored in degrees); nullopt: fit the PSF

  std::optional<algorithm> algorithm_given;  // --algorithm NAME, to catch a clash with --multiscale
  bool multiscale_flag = false;              // --multiscale (sets method too)
  multiscale_settings multiscale = default_multiscale_settings();  // --multiscale-*
  std::string multiscale_option_given;       // the first --multiscale-* option given ("" none)
  bool join_channels = false;                // --join-channels: the channels deconvolved together
  int spectral_terms = 0;                    // --fit-spectral-pol N; 0: none
  std::int64_t max_major_cycles = 0;         // --nmiter N (joint engine); 0: no limit
  std::optional<std::int64_t> plane;      // --plane N: only this plane of a cube
  std::string plot_path;                  // --plot FILE.png, .svg or .pdf
};

/// Declares every option on `app`, parsed into `opts`.
void add_options(CLI::App& app, options& opts);

/// Checks what CLI11 cannot express (usage_error, exit 2): PSF.fits or --psf-beam (or channel
/// files by name with --join-channels), a --prefix that is not empty and does not end in '/',
/// --plot's extension (.png, .svg or .pdf), and the options that need or exclude others
/// (--multiscale-* need --multiscale, --fit-spectral-pol needs --join-channels, ...).
void check_options(const options& opts);

/// Whether the run goes through the joint engine (joint/joint_clean.hpp): --multiscale or
/// --join-channels. Högbom and Clark alone take the per-plane path (deconvolve.hpp).
inline bool uses_joint_engine(const options& opts) {
  return opts.join_channels || opts.method == algorithm::multiscale;
}

/// The settings as HISTORY lines for the FITS outputs ("bkt-clean 0.1.0: hogbom niter=1000 ...").
std::vector<std::string> history_lines(const options& opts);

/// "hogbom", "clark" or "multiscale".
std::string algorithm_name(algorithm method);

}  // namespace bkt::clean
