// run_joint_path: the inputs found and the outputs made first, then the channels deconvolved group
// by group (group_deconvolution.hpp), then the summary and the files.
#include "joint_run.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <optional>

#include "bkt/stream.hpp"
#include "bkt_apps/app_error.hpp"
#include "bkt_apps/memory_limit.hpp"
#include "bkt_apps/progress.hpp"
#include "bkt_apps/stopwatch.hpp"
#include "group_deconvolution.hpp"
#include "io/fits_header.hpp"
#include "io/joint_inputs.hpp"
#include "io/joint_outputs.hpp"

namespace bkt::clean {
namespace {

using bkt::apps::app_error;
using bkt::apps::usage_error;

/// --verbose: a line on stderr with the run's time so far.
void verbose_line(const options& opts, const apps::stopwatch& start, const std::string& message) {
  if (opts.common.verbose) std::fprintf(stderr, "bkt-clean: %.3f s: %s\n", start.seconds(), message.c_str());
}

/// WSClean's channel files when --join-channels names them (NAME without PSF.fits), else nullopt
/// for a cube or an image with its PSF.
std::optional<channel_file_names> channel_files_of(const options& opts) {
  if (!opts.join_channels || !opts.psf_path.empty()) return std::nullopt;
  if (names_channel_files(opts.dirty_path)) return find_channel_files(opts.dirty_path);
  std::error_code error;
  if (std::filesystem::exists(opts.dirty_path, error))
    throw usage_error(opts.dirty_path + ": PSF.fits is required with an image or a cube (--join-channels NAME alone "
                                        "reads NAME-0000-dirty.fits, NAME-0000-psf.fits, ...)");
  throw app_error(opts.dirty_path + ": no such file, and no " + channel_file(opts.dirty_path, 0, "dirty") +
                  " for --join-channels NAME");
}

void protect_inputs(const options& opts, const std::optional<channel_file_names>& files, bkt::apps::output_set& set) {
  if (files) {
    for (const std::vector<std::string>* list : {&files->dirty, &files->psf})
      for (const std::string& path : *list) set.protect_input(path);
    for (const std::string* path : {&files->mfs_dirty, &files->mfs_psf})
      if (!path->empty()) set.protect_input(*path);
  } else {
    set.protect_input(opts.dirty_path);
    if (!opts.psf_path.empty()) set.protect_input(opts.psf_path);
  }
  if (!opts.mask_path.empty()) set.protect_input(opts.mask_path);
}

/// The cubes' header beam: every plane is restored with its own, and a FITS header holds one, so
/// it states the largest (the one that errs on the safe side for every plane).
std::optional<sky_beam> cube_header_beam(const joint_summary& joint, std::vector<std::string>& notes) {
  const channel_figures* largest = nullptr;
  bool differ = false;
  for (const channel_figures& channel : joint.channels) {
    if (!channel.restoring_sky_beam) continue;
    const sky_beam& sky = *channel.restoring_sky_beam;
    if (largest != nullptr) {
      const sky_beam& best = *largest->restoring_sky_beam;
      differ = differ || sky.major_deg != best.major_deg || sky.minor_deg != best.minor_deg;
      if (sky.major_deg * sky.minor_deg <= best.major_deg * best.minor_deg) continue;
    }
    largest = &channel;
  }
  if (largest == nullptr) return std::nullopt;
  if (differ)
    notes.push_back("each plane restored with its own beam; the cubes' BMAJ/BMIN/BPA state the largest, " +
                    largest->name + "'s");
  return largest->restoring_sky_beam;
}

/// The reference frequency of the MFS header and its band: from the lowest to the highest
/// channel, plus one channel's width (its FREQ axis's CDELT).
std::optional<double> bandwidth_of(const joint_inputs& inputs) {
  double low = 0, high = 0;
  bool any = false;
  for (const channel_input& channel : inputs.channels) {
    if (!channel.frequency_hz) return std::nullopt;
    low = any ? std::min(low, *channel.frequency_hz) : *channel.frequency_hz;
    high = any ? std::max(high, *channel.frequency_hz) : *channel.frequency_hz;
    any = true;
  }
  double width = 0;
  for (std::size_t axis = 3; axis <= 4; ++axis)
    if (header_value(inputs.sky_header(), "CTYPE" + std::to_string(axis)).value_or("").rfind("FREQ", 0) == 0)
      width = std::fabs(header_number(inputs.sky_header(), "CDELT" + std::to_string(axis)).value_or(0.0));
  return high - low + width;
}

}  // namespace

run_summary run_joint_path(const options& opts, bkt::apps::output_set& output_set, bkt::apps::rank_context& ranks) {
  const apps::stopwatch start;
  if (ranks.several())
    throw usage_error(opts.join_channels
                          ? "--join-channels runs in one process: the channels are deconvolved together, not spread "
                            "over ranks; run it without mpirun"
                          : "--multiscale runs in one process: its planes are not spread over ranks; run it without "
                            "mpirun");
  const std::optional<channel_file_names> files = channel_files_of(opts);
  protect_inputs(opts, files, output_set);
  joint_outputs outputs(opts.prefix, opts.plot_path, files ? files->dirty.size() : 0, opts.join_channels, output_set);

  const joint_input_settings settings{opts.join_channels, opts.spectral_terms > 0, opts.mask_path,
                                      opts.plane,         opts.psf_from_beam,      bkt::apps::host_memory_budget(opts.common)};
  const joint_inputs inputs =
      files ? load_channel_files(*files, settings) : load_cube_channels(opts.dirty_path, opts.psf_path, settings);

  run_summary summary;
  summary.method = opts.method;
  summary.dirty_path = opts.dirty_path;
  summary.psf_path = inputs.channels.front().psf_name;
  summary.width = inputs.channels.front().dirty.width;
  summary.height = inputs.channels.front().dirty.height;
  summary.image_planes = static_cast<std::int64_t>(inputs.channels.size());
  const output_units units = units_for(header_value(inputs.sky_header(), "BUNIT"));
  summary.unit = units.image;
  summary.model_unit = units.model;
  summary.beam_given = opts.beam.has_value();
  summary.read_seconds = start.seconds();
  verbose_line(opts, start, "read " + std::to_string(inputs.channels.size()) +
                                (inputs.channels.size() == 1 ? " channel from " : " channels from ") + opts.dirty_path);
  const bool on_gpu = bkt::apps::use_gpu(opts.common);
  summary.device = bkt::apps::device_label(on_gpu);
  std::optional<bkt::owned_stream> stream;
  if (on_gpu) stream.emplace();

  group_deconvolution run(opts, inputs, on_gpu, stream ? stream->get() : nullptr,
                          [&](const std::string& message) { verbose_line(opts, start, message); });
  joint_summary& joint = run.summary();
  joint.joined = opts.join_channels;
  joint.from_channel_files = inputs.from_channel_files;
  joint.shape = opts.multiscale.shape;
  joint.spectral_terms = opts.spectral_terms;
  const std::vector<std::vector<std::size_t>> groups = engine_groups(inputs, opts.join_channels);
  {
    // Joined channels count major cycles (their number is not known ahead), planes alone the planes.
    bkt::apps::progress_bar progress("clean", opts.join_channels ? 0 : static_cast<std::int64_t>(groups.size()));
    for (std::size_t g = 0; g < groups.size(); ++g) {
      run.deconvolve(groups[g], progress);
      if (!opts.join_channels) progress.update(static_cast<std::int64_t>(g + 1));
    }
  }
  summary.clean_seconds = run.clean_seconds();
  summary.restore_seconds = run.restore_seconds();
  summary.notes = inputs.notes;
  summary.notes.insert(summary.notes.end(), run.notes().begin(), run.notes().end());

  joint_output_notes notes;
  for (const channel_figures& channel : joint.channels) notes.channel_beams.push_back(channel.restoring_sky_beam);
  if (!inputs.from_channel_files) notes.cube_beam = cube_header_beam(joint, summary.notes);
  const image_figures& headline = joint.mfs ? *joint.mfs : joint.channels[static_cast<std::size_t>(groups.front().front())];
  summary.restoring_beam = *headline.restoring_beam;
  summary.restoring_sky_beam = headline.restoring_sky_beam;
  notes.mfs_beam = joint.mfs ? joint.mfs->restoring_sky_beam : std::nullopt;
  notes.plot_beam = headline.restoring_beam;
  notes.mfs_frequency_hz = joint.reference_frequency_hz;
  notes.mfs_bandwidth_hz = bandwidth_of(inputs);
  notes.history = history_lines(opts);
  if (!run.scale()) summary.notes.push_back("no celestial WCS (" + run.wcs().note() + "): positions in pixels only");

  const image& psf = inputs.psf_of(inputs.channels.front());
  const bool diverged = std::any_of(joint.runs.begin(), joint.runs.end(),
                                    [](const joint_run_figures& r) { return r.reason == stop_reason::diverged; });
  if (diverged && (psf.width < 2 * summary.width || psf.height < 2 * summary.height))
    summary.notes.push_back(
        "the run diverged with a PSF smaller than twice the image: cut off at half the image, a PSF is not positive "
        "definite, and on sparse uv coverage CLEAN can then run away; a PSF twice the image's size (WSClean: "
        "-make-psf-only with twice the -size) keeps the model definite");

  summary.outputs = outputs.paths();
  summary.total_seconds = start.seconds();
  summary.joint = std::move(joint);
  const std::optional<double> list_frequency =
      summary.joint->reference_frequency_hz ? summary.joint->reference_frequency_hz : inputs.channels.front().frequency_hz;
  nlohmann::json document = {{"summary", summary_json(summary)},
                             {"components", components_json(run.components(), opts.spectral_terms > 0)}};
  if (!run.wcs().has_celestial()) document["note"] = "positions in pixels only: " + run.wcs().note();
  notes.components = {wsclean_source_list(run.components(), list_frequency), document.dump(2) + "\n"};
  outputs.write(inputs, run.images(), notes);
  verbose_line(opts, start, "wrote the outputs");
  return summary;
}

}  // namespace bkt::clean
