// What a bkt-clean run reports: the one-screen text summary on standard output and the same as
// JSON (--json, and inside P-components.json).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "deconvolve.hpp"
#include "image.hpp"
#include "io/beam_geometry.hpp"
#include "joint_summary.hpp"
#include "noise_cycles.hpp"

namespace bkt::clean {

/// A plane's figures: plain values (they travel between ranks as bytes).
struct plane_figures {
  std::int64_t plane = 0;
  bool skipped = false;                // every pixel NaN: nothing to deconvolve, written as is
  std::int64_t iterations = 0;         // components taken
  std::int64_t component_pixels = 0;   // model pixels with nonzero flux (lines of P-sources.txt)
  std::int64_t major_cycles = 0;
  double model_flux = 0;               // sum of the model (image units x beam, i.e. Jy)
  double peak_residual = 0;            // largest |residual| over the candidate pixels
  double residual_rms = 0;             // over every pixel that is not NaN
  stop_reason reason = stop_reason::niter;
  double threshold = 0;                // the threshold it stopped at (auto: the last cycle's level)
  std::optional<double> noise_sigma;   // --auto-threshold/--auto-mask: the residual's MAD noise at the end
  std::optional<beam> fitted_beam;     // fitted to this plane's PSF (pixels)
};

struct plane_summary : plane_figures {
  std::vector<noise_cycle> noise_cycles;  // --auto-threshold/--auto-mask: each cycle (noise_cycles.hpp)
};

struct run_summary {
  std::string device;  // "cpu" or the GPU's name
  algorithm method = algorithm::hogbom;
  std::string dirty_path, psf_path;
  std::int64_t width = 0, height = 0, image_planes = 0;
  std::string unit;        // the residual's BUNIT, e.g. JY/BEAM
  std::string model_unit;  // the model's, e.g. JY/PIXEL
  std::vector<plane_summary> planes;  // the deconvolved planes

  beam restoring_beam;                  // pixels
  std::optional<sky_beam> restoring_sky_beam;  // degrees; nullopt without a celestial WCS
  bool beam_given = false;              // --beam rather than fitted

  double read_seconds = 0, clean_seconds = 0, restore_seconds = 0, total_seconds = 0;
  std::vector<std::string> outputs;
  std::vector<std::string> notes;

  /// A run through the joint engine (--multiscale, --join-channels): its figures, which `planes`
  /// then leaves empty; the restoring beam above is the MFS image's (or the one channel's).
  std::optional<joint_summary> joint;
};

/// "niter", "threshold", "diverged" or "no_pixels".
std::string stop_reason_name(stop_reason reason);

/// The one-screen summary, newline-terminated (a joint run's: format_joint_summary).
std::string format_summary(const run_summary& summary);

/// The same, machine-readable: totals at the top level, each plane under "planes" (a joint run's:
/// joint_summary_json).
nlohmann::json summary_json(const run_summary& summary);

}  // namespace bkt::clean
