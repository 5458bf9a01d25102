#include "run_clean.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "bkt/stream.hpp"
#include "bkt_apps/app_error.hpp"
#include "bkt_apps/memory_limit.hpp"
#include "bkt_apps/progress.hpp"
#include "bkt_apps/stopwatch.hpp"
#include "deconvolve.hpp"
#include "image_statistics.hpp"
#include "noise_cycles.hpp"
#include "io/beam_psf.hpp"
#include "io/clean_outputs.hpp"
#include "io/fits_header.hpp"
#include "io/sky_wcs.hpp"
#include "joint_run.hpp"
#include "plane_ranks.hpp"

namespace bkt::clean {
namespace {

/// The restoring beam: --beam in pixels, else the fitted beam of largest area. For a cube that is
/// CASA's "common beam" choice: every plane is restored alike, so the planes stay comparable.
beam choose_restoring_beam(const options& opts, const std::optional<pixel_scale>& scale,
                           const std::vector<plane_summary>& planes, std::vector<std::string>& notes) {
  if (opts.beam) return beam_in_pixels(*opts.beam, *scale);
  const plane_summary* largest = nullptr;
  for (const plane_summary& plane : planes)
    if (plane.fitted_beam && (largest == nullptr || plane.fitted_beam->major_fwhm * plane.fitted_beam->minor_fwhm >
                                                        largest->fitted_beam->major_fwhm * largest->fitted_beam->minor_fwhm))
      largest = &plane;
  if (largest == nullptr) return {};
  if (planes.size() > 1)
    notes.push_back("every plane restored with the largest fitted beam, plane " + std::to_string(largest->plane) + "'s");
  return *largest->fitted_beam;
}

struct deconvolved_plane {
  plane_images images;
  plane_summary summary;
};

/// Deconvolves one plane of the inputs.
deconvolved_plane deconvolve_plane(const options& opts, const clean_inputs& inputs, std::int64_t plane,
                                   cudaStream_t stream, bool on_gpu) {
  const image& dirty = inputs.dirty.planes[static_cast<std::size_t>(plane)];
  deconvolved_plane result;
  result.images.plane = result.summary.plane = plane;
  if (all_nan(dirty)) {
    // A blank channel of a cube: nothing to clean; it is written back as it came.
    result.summary.skipped = true;
    result.images.model = image{dirty.width, dirty.height, std::vector<float>(dirty.pixels.size(), 0.0f)};
    result.images.residual = result.images.restored = dirty;
    return result;
  }
  const std::string psf_name =
      inputs.psf.num_planes() > 1 ? inputs.psf.name + " plane " + std::to_string(plane) : inputs.psf.name;
  const image psf = prepare_psf(inputs.psf_plane(plane), dirty, psf_name);

  clean_params params;
  params.method = opts.method;
  params.niter = opts.niter;
  params.gain = opts.gain;
  params.mgain = opts.mgain;
  params.threshold = opts.threshold;
  params.mask = candidate_mask(inputs.mask_plane(plane), opts.mask_box, dirty.width, dirty.height);
  const deconvolver deconvolve = [&](const image& from, const clean_params& with) {
    return on_gpu ? clean_gpu(from, psf, with, stream) : clean_cpu(from, psf, with);
  };
  plane_summary& summary = result.summary;
  clean_result cleaned;
  if (opts.auto_threshold || opts.auto_mask) {
    cleaned = clean_by_noise_cycles(dirty, params, {opts.auto_threshold, opts.auto_mask}, deconvolve,
                                    summary.noise_cycles);
    summary.noise_sigma = summary.noise_cycles.back().sigma;
    params.threshold = summary.noise_cycles.back().level;
  } else {
    cleaned = deconvolve(dirty, params);
  }

  summary.iterations = cleaned.iterations;
  summary.major_cycles = cleaned.major_cycles;
  summary.reason = cleaned.reason;
  summary.peak_residual = cleaned.peak_residual;
  summary.residual_rms = finite_rms(cleaned.residual);
  summary.threshold = params.threshold;
  summary.component_pixels = nonzero_pixels(cleaned.model, summary.model_flux);
  if (!opts.beam) summary.fitted_beam = fit_beam(psf, psf_name);
  result.images.model = std::move(cleaned.model);
  result.images.residual = std::move(cleaned.residual);
  return result;
}

}  // namespace

run_summary run_clean(const options& opts, bkt::apps::output_set& output_set, bkt::apps::rank_context& ranks) {
  if (uses_joint_engine(opts)) return run_joint_path(opts, output_set, ranks);
  const apps::stopwatch start;
  const auto verbose = [&](const std::string& message) {
    if (opts.common.verbose) std::fprintf(stderr, "bkt-clean: %.3f s: %s\n", start.seconds(), message.c_str());
  };
  // Created before the work, so that an unwritable prefix or plot path fails now rather than after it.
  for (const std::string* input : {&opts.dirty_path, &opts.psf_path, &opts.mask_path}) output_set.protect_input(*input);
  const output_paths paths = output_paths_for(opts.prefix, opts.plot_path);
  std::optional<clean_outputs> outputs;  // under mpirun rank 0 alone writes them
  if (ranks.is_root()) outputs.emplace(paths, output_set);
  clean_inputs inputs = load_clean_inputs(opts.dirty_path, opts.psf_path, opts.mask_path, opts.plane,
                                          bkt::apps::host_memory_budget(opts.common));
  const sky_wcs wcs(inputs.dirty.header);
  const std::optional<pixel_scale> scale = wcs.scale();
  if (opts.psf_from_beam) inputs.psf = psf_from_header_beam(inputs.dirty, scale);
  if (opts.beam && !scale)
    throw bkt::apps::app_error(opts.dirty_path + ": --beam BMAJ,BMIN,BPA (arcsec) needs a celestial WCS: " + wcs.note());

  run_summary summary;
  summary.method = opts.method;
  summary.dirty_path = opts.dirty_path;
  summary.psf_path = inputs.psf.name;
  summary.width = inputs.dirty.width();
  summary.height = inputs.dirty.height();
  summary.image_planes = inputs.dirty.num_planes();
  const output_units units = units_for(header_value(inputs.dirty.header, "BUNIT"));
  summary.unit = units.image;
  summary.model_unit = units.model;
  summary.beam_given = opts.beam.has_value();
  summary.read_seconds = start.seconds();
  verbose("read " + opts.dirty_path + " and " + inputs.psf.name);

  const bool on_gpu = bkt::apps::use_gpu(opts.common);
  summary.device = bkt::apps::device_label(on_gpu);
  std::optional<bkt::owned_stream> stream;
  if (on_gpu) stream.emplace();

  if (ranks.several()) {
    if (!on_gpu) throw bkt::apps::usage_error("several ranks clean on one GPU each; run one process for the CPU path");
    ranks.require_all_succeeded();  // inputs read and outputs made everywhere before the planes are shared out
  }

  // Under mpirun each rank deconvolves its own planes (plane_owner) and rank 0 gathers them all.
  std::vector<plane_images> planes(inputs.planes.size());
  summary.planes.resize(inputs.planes.size());
  const apps::stopwatch clean_start;
  {
    bkt::apps::progress_bar progress("clean", static_cast<std::int64_t>(inputs.planes.size()));
    for (std::size_t i = 0; i < inputs.planes.size(); ++i) {
      if (plane_owner(i, ranks) != ranks.rank()) continue;
      const std::int64_t plane = inputs.planes[i];
      deconvolved_plane done = deconvolve_plane(opts, inputs, plane, stream ? stream->get() : nullptr, on_gpu);
      verbose("plane " + std::to_string(plane) + ": " + std::to_string(done.summary.iterations) + " iterations, stop " +
              stop_reason_name(done.summary.reason));
      planes[i] = std::move(done.images);
      summary.planes[i] = done.summary;
      progress.update(static_cast<std::int64_t>(i + 1));
    }
  }
  if (ranks.several()) {
    ranks.require_all_succeeded();  // every plane deconvolved before they travel
    gather_planes_to_root(planes, summary.planes, summary.width, summary.height, ranks);
    if (!ranks.is_root()) return summary;
  }
  for (std::size_t i = 0; i < planes.size(); ++i)
    if (summary.planes[i].skipped) {
      summary.notes.push_back("plane " + std::to_string(inputs.planes[i]) + ": every pixel NaN, left as is");
      planes[i].restored = planes[i].residual;  // the dirty plane, written back as it came
    }
  summary.clean_seconds = clean_start.seconds();

  const apps::stopwatch restore_start;
  summary.restoring_beam = choose_restoring_beam(opts, scale, summary.planes, summary.notes);
  if (scale) summary.restoring_sky_beam = beam_on_sky(summary.restoring_beam, *scale);
  else summary.notes.push_back("no celestial WCS (" + wcs.note() + "): positions in pixels only, no BMAJ/BMIN/BPA");
  for (std::size_t i = 0; i < planes.size(); ++i)
    if (!summary.planes[i].skipped) planes[i].restored = restore(planes[i].model, planes[i].residual, summary.restoring_beam);
  summary.restore_seconds = restore_start.seconds();
  verbose("restored");

  summary.outputs = {paths.model, paths.residual, paths.image, paths.restored_link, paths.sources, paths.components};
  if (!paths.plot.empty()) summary.outputs.push_back(paths.plot);
  summary.total_seconds = start.seconds();
  output_notes notes{summary.restoring_sky_beam, history_lines(opts), summary_json(summary), summary.restoring_beam};
  outputs->write(inputs, planes, notes);
  verbose("wrote the outputs");
  return summary;
}

}  // namespace bkt::clean
