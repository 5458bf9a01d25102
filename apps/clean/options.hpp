// bkt-clean's command line: the two inputs, the output prefix, the deconvolution's settings in
// the names WSClean users know, and what else to write.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>

#include "bkt_apps/cli.hpp"
#include "image.hpp"
#include "io/beam_geometry.hpp"
#include "io/clean_inputs.hpp"

namespace bkt::clean {

struct options {
  std::string dirty_path;  // DIRTY.fits
  std::string psf_path;    // PSF.fits, or empty with --psf-beam
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
  std::optional<std::int64_t> plane;      // --plane N: only this plane of a cube
  std::string plot_path;                  // --plot FILE.png, .svg or .pdf
};

/// Declares every option on `app`, parsed into `opts`.
void add_options(CLI::App& app, options& opts);

/// Checks what CLI11 cannot express (usage_error, exit 2): PSF.fits or --psf-beam, a --prefix that
/// is not empty and does not end in '/', --plot's extension (.png, .svg or .pdf).
void check_options(const options& opts);

/// The settings as HISTORY lines for the FITS outputs ("bkt-clean 0.1.0: hogbom niter=1000 ...").
std::vector<std::string> history_lines(const options& opts);

/// "hogbom" or "clark".
std::string algorithm_name(algorithm method);

}  // namespace bkt::clean
