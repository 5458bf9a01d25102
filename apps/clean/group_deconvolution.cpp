#include "group_deconvolution.hpp"

#include <algorithm>
#include <cmath>

#include "bkt_apps/app_error.hpp"
#include "bkt_apps/stopwatch.hpp"
#include "deconvolve.hpp"
#include "image_statistics.hpp"
#include "joint_components.hpp"
#include "summary.hpp"
#include "summary_parts.hpp"

namespace bkt::clean {
namespace {

/// sum_c w_c images_c / sum_c w_c, NaN where any channel is NaN.
image weighted_mean(const std::vector<image>& images, const std::vector<double>& weights) {
  double total = 0;
  for (double weight : weights) total += weight;
  std::vector<double> sum(images.front().pixels.size(), 0.0);
  for (std::size_t c = 0; c < images.size(); ++c)
    for (std::size_t i = 0; i < sum.size(); ++i) sum[i] += weights[c] * images[c].pixels[i];
  image mean{images.front().width, images.front().height, std::vector<float>(sum.size())};
  for (std::size_t i = 0; i < sum.size(); ++i) mean.pixels[i] = static_cast<float>(sum[i] / total);
  return mean;
}

image_figures figures_of(const plane_images& images, const beam& restoring_beam, const std::optional<pixel_scale>& scale,
                         const std::string& beam_source) {
  image_figures figures;
  nonzero_pixels(images.model, figures.model_flux);
  figures.residual_rms = finite_rms(images.residual);
  figures.residual_sigma = mad_sigma(images.residual, clean_params{});
  figures.restoring_beam = restoring_beam;
  if (scale) figures.restoring_sky_beam = beam_on_sky(restoring_beam, *scale);
  figures.beam_source = beam_source;
  return figures;
}

}  // namespace

/// The channels of each engine run: every channel with a pixel that is not NaN, all together when
/// joined, else one by one.
std::vector<std::vector<std::size_t>> engine_groups(const joint_inputs& inputs, bool join) {
  std::vector<std::vector<std::size_t>> groups;
  for (std::size_t c = 0; c < inputs.channels.size(); ++c) {
    if (all_nan(inputs.channels[c].dirty)) continue;
    if (!join || groups.empty()) groups.emplace_back();
    groups.back().push_back(c);
  }
  return groups;
}

group_deconvolution::group_deconvolution(const options& opts, const joint_inputs& inputs, bool on_gpu,
                                         cudaStream_t stream, std::function<void(const std::string&)> verbose)
    : opts_(opts), inputs_(inputs), wcs_(inputs.sky_header()), scale_(wcs_.scale()), on_gpu_(on_gpu), stream_(stream),
      verbose_(std::move(verbose)) {
  if (opts.beam && !scale_)
    throw bkt::apps::app_error(inputs.channels.front().name +
                               ": --beam BMAJ,BMIN,BPA (arcsec) needs a celestial WCS: " + wcs_.note());
  images_.channels.resize(inputs.channels.size());
  joint_.channels.resize(inputs.channels.size());
  for (std::size_t c = 0; c < inputs.channels.size(); ++c) {
    const channel_input& channel = inputs.channels[c];
    channel_figures& figures = joint_.channels[c];
    figures.channel = static_cast<std::int64_t>(c);
    figures.name = channel.name;
    figures.frequency_hz = channel.frequency_hz;
    images_.channels[c].plane = channel.plane;
    if (!all_nan(channel.dirty)) continue;
    // A blank channel is left out of the engine and written back as it came.
    figures.skipped = true;
    plane_images& blank = images_.channels[c];
    blank.model = image{channel.dirty.width, channel.dirty.height, std::vector<float>(channel.dirty.pixels.size(), 0.0f)};
    blank.residual = blank.restored = channel.dirty;
    notes_.push_back(channel.name + ": every pixel NaN, left out and written as it came");
  }
}

beam group_deconvolution::restoring_beam(const image& psf, const std::string& name) const {
  return opts_.beam ? beam_in_pixels(*opts_.beam, *scale_) : fit_beam(psf, name);
}

joint_params group_deconvolution::params_for(const channel_input& first) const {
  joint_params params;
  params.method = opts_.method;
  params.niter = opts_.niter;
  params.gain = opts_.gain;
  params.mgain = opts_.mgain;
  params.threshold = opts_.threshold;
  params.mask = candidate_mask(inputs_.mask_of(first), opts_.mask_box, first.dirty.width, first.dirty.height);
  params.levels = {opts_.auto_threshold, opts_.auto_mask};
  params.multiscale = opts_.multiscale;
  params.spectral_terms = opts_.spectral_terms;
  params.max_major_cycles = opts_.max_major_cycles;
  return params;
}

void group_deconvolution::deconvolve(const std::vector<std::size_t>& members, bkt::apps::progress_bar& progress) {
  const channel_input& first = inputs_.channels[members.front()];
  channel_set set;
  std::vector<const channel_input*> channels;
  for (const std::size_t c : members) {
    const channel_input& channel = inputs_.channels[c];
    set.dirty.push_back(channel.dirty);
    set.psf.push_back(prepare_psf(inputs_.psf_of(channel), channel.dirty, channel.psf_name));
    channels.push_back(&channel);
  }
  set.weights = channel_weights(channels, notes_);
  if (std::all_of(channels.begin(), channels.end(), [](const channel_input* c) { return c->frequency_hz.has_value(); }))
    for (const channel_input* channel : channels) set.frequencies.push_back(*channel->frequency_hz);

  joint_params params = params_for(first);
  // The automatic scales and the scale bias are reckoned from the beam's minor axis, as WSClean's.
  const std::string psf_name = members.size() == 1 ? first.psf_name : first.psf_name + " and the other channels' PSFs";
  if (params.method == algorithm::multiscale) params.beam_fwhm = fit_beam(integrated_psf(set), psf_name).minor_fwhm;

  const std::string label = joint_.joined ? std::string() : "plane " + std::to_string(first.plane) + ": ";
  params.progress = [&](const joint_progress& done) {
    if (joint_.joined) progress.update(done.major_cycle);
    std::string message = label + "major cycle " + std::to_string(done.major_cycle);
    if (done.cycle.sigma > 0) message += ": noise " + summary_parts::number(done.cycle.sigma);
    verbose_(message + ", " + std::to_string(done.iterations) + " components so far, peak " +
             summary_parts::number(done.peak));
  };
  const apps::stopwatch clean_start;
  const joint_result result =
      on_gpu_ ? joint_clean_gpu(set, params, stream_) : joint_clean_cpu(set, params);
  clean_seconds_ += clean_start.seconds();
  verbose_(label + std::to_string(result.iterations) + " components in " + std::to_string(result.major_cycles) +
          " major cycles, stop " + stop_reason_name(result.reason));

  for (const unsampled_scale& dropped : result.dropped_scales)
    notes_.push_back(label + "multiscale: the scale of " + summary_parts::number(dropped.size) +
                     (opts_.multiscale.scales.empty() ? " pixels and larger ones left out" : " pixels left out") +
                     ": the PSF keeps " + std::to_string(std::lround(100 * dropped.sampled_fraction)) +
                     " % of its peak (the shortest baselines do not see it; at least " +
                     std::to_string(std::lround(100 * min_sampled_fraction)) + " % is needed)");

  joint_run_figures run;
  for (const std::size_t c : members) run.channels.push_back(static_cast<std::int64_t>(c));
  run.scales = result.scales;
  run.per_scale = result.per_scale;
  run.scales_left_out = result.dropped_scales;
  run.cycles = result.cycles;
  run.iterations = result.iterations;
  run.major_cycles = result.major_cycles;
  run.minor_loops = result.minor_loops;
  run.reason = result.reason;
  run.peak_residual = result.peak_residual;
  run.threshold = result.cycles.empty() ? params.threshold : result.cycles.back().level;
  if ((params.levels.auto_threshold || params.levels.auto_mask) && !result.cycles.empty())
    run.noise_sigma = result.cycles.back().sigma;
  run.beam_fwhm = params.beam_fwhm;
  joint_.runs.push_back(std::move(run));

  const apps::stopwatch restore_start;
  for (std::size_t k = 0; k < members.size(); ++k) {
    const std::size_t c = members[k];
    plane_images& done = images_.channels[c];
    done.model = result.model[k];
    done.residual = result.residual[k];
    const beam shape = restoring_beam(set.psf[k], inputs_.channels[c].psf_name);
    done.restored = restore(done.model, done.residual, shape);
    channel_figures& figures = joint_.channels[c];
    static_cast<image_figures&>(figures) = figures_of(done, shape, scale_, opts_.beam ? "given" : "fitted");
    figures.weight = set.weights[k];
  }
  if (joint_.joined) make_mfs(set, members);
  restore_seconds_ += restore_start.seconds();

  const component_placement placement{members, inputs_.channels.size(), joint_.joined ? 0 : first.plane,
                                      inputs_.from_channel_files ? std::vector<std::int64_t>{}
                                                                 : inputs_.cube.dirty.plane_position(first.plane)};
  const auto merged = merge_components(result, set, params.spectral_terms, placement, wcs_);
  components_.insert(components_.end(), merged.begin(), merged.end());
  if (!joint_.reference_frequency_hz) joint_.reference_frequency_hz = reference_frequency(set);
}

void group_deconvolution::make_mfs(const channel_set& set, const std::vector<std::size_t>& members) {
  std::vector<image> models, residuals;
  for (const std::size_t c : members) {
    models.push_back(images_.channels[c].model);
    residuals.push_back(images_.channels[c].residual);
  }
  plane_images mfs;
  mfs.model = weighted_mean(models, set.weights);
  mfs.residual = weighted_mean(residuals, set.weights);
  // The MFS beam: --beam, else fitted to WSClean's MFS PSF when there is one, else to the
  // channels' weighted mean PSF, which is what that PSF is.
  beam shape;
  std::string source = "given";
  if (opts_.beam) {
    shape = beam_in_pixels(*opts_.beam, *scale_);
  } else if (inputs_.mfs_psf) {
    shape = fit_beam(prepare_psf(*inputs_.mfs_psf, set.dirty.front(), inputs_.mfs_psf_name), inputs_.mfs_psf_name);
    source = "fitted to " + inputs_.mfs_psf_name;
  } else {
    shape = fit_beam(integrated_psf(set), "the channels' integrated PSF");
    source = "fitted to the channels' integrated PSF";
  }
  mfs.restored = restore(mfs.model, mfs.residual, shape);
  joint_.mfs = figures_of(mfs, shape, scale_, source);
  images_.mfs = std::move(mfs);
}

}  // namespace bkt::clean
