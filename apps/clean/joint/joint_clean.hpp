// Deconvolution of several channels together (--join-channels) and multiscale CLEAN
// (--multiscale), as WSClean runs them, with the rules written once here and the heavy steps
// behind a backend: cpu/joint_cpu_backend (FFTW, threads) or gpu/joint_gpu_backend (cuFFT,
// kernels), so that both paths take the same decisions from the same figures.
//
// The channels' images are combined into the integrated residual I = sum_c w_c R_c / sum_c w_c.
// A run is a sequence of major cycles; each starts from the exact residuals R_c = D_c - M_c (*) P_c
// (zero-padded FFTs), measures the noise of I (1.4826 x MAD, for --auto-threshold/--auto-mask with
// the rules of noise_cycles.hpp) and ends once the peak has fallen by mgain. Within it, minor
// loops choose a scale and run a sub-minor loop at it:
//  1. the peak of I (*) k_s over the pixels allowed at each active scale s, its |value| times the
//     scale's bias: the largest picks the scale (Högbom and Clark have scale 0 alone);
//  2. the sub-minor loop works on candidates, the allowed pixels whose |sum_c w_c (R_c (*) k_s)| /
//     sum w_c is at or above its threshold: it takes the candidate with the largest such |value|
//     (ties: smaller index y * width + x), gives channel c the flux g_s x (R_c (*) k_s) there
//     (fitted over frequency with --fit-spectral-pol), and subtracts flux_c x (P_c (*) k_s (*)
//     k_s) from the candidates, until their peak is at or below its threshold;
//  3. the components, convolved with k_s, join the models, and the residuals are made exact again.
// Thresholds, in the units of the scale-convolved I:
//  - multiscale (WSClean): candidates and stop at max(T, (1 - multiscale_gain) P) / bias_s, T the
//    major cycle's threshold max(level, (1 - mgain) x its first peak); once T dominates, a
//    countdown of max(8, 1.5 x scales) minor loops ends the major cycle;
//  - clark: candidates above max_sidelobe x P, stop at max(T, max_sidelobe x P), scale 0;
//  - hogbom: every allowed pixel a candidate, stop at T, scale 0.
// The sub-minor loop reads each PSF's central part of the image's size, as WSClean's does: a
// component there moves the pixels within half the image of it, and the exact residuals after the
// loop add what lies beyond. At scales > 0 that part is weighed by loop_taper (loop_taper.hpp), so
// that the cut-off kernel stays positive definite.
// Divergence: CLEAN diverges where the residual holds what no component seen through the PSF can
// explain (white noise outside the sampled uv cells, gridding or calibration errors): the peak
// then grows. A sub-minor loop stops as diverged once its candidates' peak exceeds
// divergence_factor (1.1, Högbom's rule) times the peak it started from; Högbom and Clark stop
// once the integrated peak exceeds 1.1 times the first, multiscale once a scale's biased peak
// exceeds multiscale_divergence_limit times the major cycle's first.
// Either ends the run with stop_reason::diverged, its components kept.
// Scales stay active while their peak times bias exceeds (1 - gain) of the last chosen one's
// (WSClean's rule). With --auto-mask, each scale's mask is the pixels where that scale has taken
// components; once the mask is on, a scale searches only its own mask.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "image.hpp"
#include "joint/scale_kernels.hpp"
#include "noise_cycles.hpp"

namespace bkt::clean {

/// How far multiscale's biased peaks may rise within a major cycle before the run counts as diverged:
/// loose, so that no run of the tests or the bench trips it (their peaks only fall); not swept.
inline constexpr double multiscale_divergence_limit = 4.0;

/// Channels deconvolved together. Every image has the same size; every PSF is prepared
/// (prepare_psf) and of one size, the image's or twice it.
struct channel_set {
  std::vector<image> dirty;
  std::vector<image> psf;
  std::vector<double> weights;      // > 0 each: the channels' shares of the integrated image
  std::vector<double> frequencies;  // Hz, one per channel, or empty when unknown
  std::int64_t width() const { return dirty.front().width; }
  std::int64_t height() const { return dirty.front().height; }
  std::int64_t channels() const { return static_cast<std::int64_t>(dirty.size()); }
};

/// What a run reports after each major cycle (for progress lines).
struct joint_progress {
  std::int64_t major_cycle = 0;  // 1-based: cycles done
  std::int64_t iterations = 0;   // components so far
  double peak = 0;               // the integrated residual's peak now (the chosen scale's, biased)
  noise_cycle cycle;             // the cycle just done
};

struct joint_params {
  algorithm method = algorithm::multiscale;
  std::int64_t niter = 1000;
  std::int64_t max_major_cycles = 0;  // --nmiter (WSClean's -nmiter): stop after this many; 0: no limit
  double gain = 0.1;
  double mgain = 0.8;
  double threshold = 0;             // the floor of every level (--threshold)
  std::vector<std::uint8_t> mask;   // the user's mask; empty: every pixel that is not NaN
  noise_levels levels;              // --auto-threshold, --auto-mask
  multiscale_settings multiscale;
  int spectral_terms = 0;           // --fit-spectral-pol; 0: each channel keeps its own flux
  double beam_fwhm = 0;             // pixels: the automatic scales start at four times this
  std::function<void(const joint_progress&)> progress;  // called after each major cycle; may be empty
};

/// One component: a scale's kernel at (x, y) with a flux per channel.
struct joint_component {
  std::int64_t x = 0, y = 0;
  int scale = 0;  // index into joint_result::scales
};

struct scale_totals {
  std::int64_t components = 0;
  double flux = 0;  // integrated flux taken at this scale
};

struct joint_result {
  std::vector<image> model;      // per channel: the components convolved with their kernels
  std::vector<image> residual;   // per channel: dirty - model (*) psf
  std::vector<double> scales;    // pixels
  std::vector<unsampled_scale> dropped_scales;  // scale_set::dropped
  std::vector<joint_component> components;  // in the order taken
  std::vector<float> fluxes;     // components.size() x channels: component i's flux in channel c at [i * channels + c]
  std::vector<scale_totals> per_scale;
  std::vector<noise_cycle> cycles;  // one per major cycle
  std::int64_t iterations = 0;
  std::int64_t major_cycles = 0;
  std::int64_t minor_loops = 0;
  stop_reason reason = stop_reason::niter;
  double peak_residual = 0;      // the last peak of the integrated residual (biased scale peak)
};

/// A scale's peak: the integrated residual convolved with the scale's kernel, at (x, y).
struct scale_peak {
  bool found = false;
  float value = 0;  // signed
  std::int64_t x = 0, y = 0;
};

/// What the sub-minor loop is told.
struct sub_minor_request {
  int scale = 0;
  double candidate_threshold = 0;  // candidates: |integrated convolved residual| >= this
  double stop_threshold = 0;       // the loop stops once the candidates' peak is at or below this
  double divergence_level = 0;     // ... and as diverged once it rises above this
  std::int64_t max_components = 0;
};

struct sub_minor_outcome {
  std::int64_t candidates = 0;
  std::int64_t taken = 0;
  double flux = 0;       // sum over components of their integrated flux
  double last_peak = 0;  // the candidates' largest |integrated value| when the loop stopped
  bool diverged = false; // it stopped because that peak rose above request.divergence_level
};

/// The heavy steps. A backend owns the channels' dirty images, models, residuals and PSFs.
class joint_backend {
 public:
  virtual ~joint_backend() = default;
  /// Residuals made exact: R_c = D_c - M_c (*) P_c.
  virtual void update_residuals() = 0;
  /// 1.4826 x MAD of the integrated residual over the user's mask (NaN excluded); 0 for none.
  virtual double integrated_sigma() = 0;
  /// The peak of each listed scale over its allowed pixels: inside its border, the user's mask,
  /// not NaN, and (mask_on) its auto-mask.
  virtual std::vector<scale_peak> find_peaks(const std::vector<int>& scales, bool mask_on) = 0;
  /// Runs a sub-minor loop at `request.scale` (same allowed pixels), adds its components to the
  /// models and appends them to `result` (components, fluxes), and records their pixels in the
  /// scale's auto-mask. Leaves the residuals to update_residuals().
  virtual sub_minor_outcome run_sub_minor(const sub_minor_request& request, bool mask_on, joint_result& result) = 0;
  /// Copies the models and residuals into `result`.
  virtual void fetch(joint_result& result) = 0;
};

/// The largest |psf| outside its main lobe, of the integrated PSF: Clark's candidate cutoff.
double integrated_sidelobe(const channel_set& channels);

/// The integrated PSF: sum_c w_c P_c / sum_c w_c.
image integrated_psf(const channel_set& channels);

/// The scales of a run: make_scales for multiscale (the integrated PSF, params.beam_fwhm), else
/// the delta scale alone.
scale_set scales_for(const channel_set& channels, const joint_params& params);

/// The run, by the rules above, with the scales of scales_for (a backend built with set.scales).
joint_result run_joint_clean(joint_backend& backend, const channel_set& channels, const joint_params& params,
                             const scale_set& set);

/// The whole run on the CPU (cpu/joint_cpu_backend).
joint_result joint_clean_cpu(const channel_set& channels, const joint_params& params);
/// The same on the GPU on `stream` (gpu/joint_gpu_backend); throws bkt::error on a CUDA failure.
joint_result joint_clean_gpu(const channel_set& channels, const joint_params& params, cudaStream_t stream);

/// Per channel abscissae (frequency / reference - 1, the reference the weighted mean frequency) for
/// the spectral fit; empty without frequencies.
std::vector<double> spectral_abscissae(const channel_set& channels);
/// The weighted mean frequency (Hz), or nullopt without frequencies.
std::optional<double> reference_frequency(const channel_set& channels);

}  // namespace bkt::clean
