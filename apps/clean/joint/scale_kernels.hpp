// Multiscale CLEAN's scales (Offringa & Smirnov 2017, as WSClean implements its -multiscale): the
// shape of each scale, the automatic scale list, the bias that weighs their peaks, and the gain
// that makes one component at a scale remove `gain` of that scale's peak. Host code, shared by the
// CPU and the GPU path.
//
// - A scale of size s (pixels) is a kernel of odd width n, centred at (n / 2, n / 2), summing to 1:
//   tapered-quadratic (WSClean's default): n = 2 ceil(s / 2) + 1, value (1 - (r/s)^2) times a Hann
//   window of width n + 1 at distance r from the centre; gaussian: sigma = 3 s / 16, n covering
//   +-6 sigma (at most the image's smaller side). Scale 0 is the delta function (n = 1).
// - Automatic scales: 0, then 4 x the beam's width in pixels, doubling while below half the image's
//   smaller side (and --multiscale-max-scales), as WSClean's list runs.
// - The bias of scale s > 0: scale_bias^-log2(s / (2 x the beam)) (1 for scale 0, and for a single
//   scale): a peak at scale s is chosen when its value times the bias is the largest.
// - The gain at scale s: gain / psf_peak(s), psf_peak(s) the integrated PSF convolved with the
//   kernel, at its centre: a component then removes `gain` of the scale-convolved residual's peak.
// - A scale's components lie at least ceil(s / 2) pixels from the image's edges (its border, as
//   WSClean's): a tapered-quadratic kernel, convolved circularly at the image's size, then never
//   wraps; a Gaussian one reaches 1.125 s and wraps up to 0.4 % of a border component's flux to
//   the opposite edge (docs/tools/bkt-clean.md, open problems).
// - Only scales the PSF samples are kept. An interferometer measures no zero spacing, so its PSF
//   integrates to about 0: beyond the largest scale its shortest baselines see, psf_peak(s) falls
//   to about 0 or below, and the gain gain / psf_peak(s) grows without bound or changes sign
//   (docs/tools/bkt-clean.md gives the figures). WSClean keeps such scales; we leave out every
//   scale whose sampled fraction, psf_peak(s) over the same kernel's peak on a Gaussian beam of
//   the beam's width (a PSF that samples every spacing), is below min_sampled_fraction. The
//   automatic list ends at the first such scale.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "image.hpp"

namespace bkt::clean {

enum class scale_shape { tapered_quadratic, gaussian };

/// "tapered-quadratic" or "gaussian".
std::string scale_shape_name(scale_shape shape);

/// The multiscale settings, with WSClean's option names and defaults.
struct multiscale_settings {
  std::vector<double> scales;       // --multiscale-scales, pixels; empty: automatic
  double scale_bias = 0.6;          // --multiscale-scale-bias
  double gain = 0.2;                // --multiscale-gain: a sub-minor loop ends once its peak fell by this fraction
  scale_shape shape = scale_shape::tapered_quadratic;  // --multiscale-shape
  std::int64_t max_scales = 0;      // --multiscale-max-scales; 0: no limit
};

/// A scale's kernel: width x width values, row-major, summing to 1, centre at (width / 2, width / 2).
struct scale_kernel {
  std::int64_t width = 1;
  std::vector<float> values{1.0f};
  float at(std::int64_t dx, std::int64_t dy) const { return values[(dy + width / 2) * width + dx + width / 2]; }
};

/// The kernel of scale `size` (pixels); `max_width` caps a Gaussian's extent (the image's smaller side).
scale_kernel make_scale_kernel(double size, scale_shape shape, std::int64_t max_width);

/// What the deconvolution needs to know of each scale.
struct scale_info {
  double size = 0;        // pixels
  scale_kernel kernel;
  double bias = 1;        // the peak's weight when choosing a scale
  double psf_peak = 1;    // (integrated PSF (*) kernel) at the PSF's centre
  double gain = 0;        // the loop gain at this scale: gain / psf_peak
  std::int64_t border = 0;  // components at least this far from the edges: ceil(size / 2)
};

/// The least sampled fraction a scale is kept with: between the fractions measured at the scales
/// PSFs sample and those beyond them (docs/tools/bkt-clean.md, tuning constants).
inline constexpr double min_sampled_fraction = 0.5;

/// A scale left out: its size (pixels) and its sampled fraction.
struct unsampled_scale {
  double size = 0;
  double sampled_fraction = 0;
};

/// The scales of a run and those left out because the PSF does not sample them.
struct scale_set {
  std::vector<scale_info> scales;        // sorted by size; scale 0 first when present
  std::vector<unsampled_scale> dropped;  // the automatic list: its first unsampled scale alone
};

/// The scales for an image of width x height with a beam `beam_fwhm` pixels wide (WSClean takes its
/// theoretical beam, from the longest baseline, which an image does not carry; bkt-clean the
/// minor axis of the beam fitted to the integrated PSF), the integrated PSF `psf` (peak at
/// psf_centre) and loop gain `gain`.
/// Given scales are sorted and de-duplicated; any that do not fit (size >= half the smaller side)
/// are dropped, and so are those the PSF does not sample (into `dropped`). Throws
/// bkt::apps::usage_error when none is left.
scale_set make_scales(const multiscale_settings& settings, double beam_fwhm, double gain, const image& psf,
                      std::int64_t width, std::int64_t height);

/// The single delta scale that Högbom and Clark use.
std::vector<scale_info> delta_scale(double gain);

/// A scale's FWHM as a Gaussian source, in pixels, as WSClean writes it in the source list:
/// 2 sqrt(2 ln 2) x 3 size / 16.
double scale_fwhm_pixels(double size);

}  // namespace bkt::clean
