#include "joint_outputs.hpp"

#include "axis_layout.hpp"
#include "fits_header.hpp"
#include "quick_look.hpp"
#include "sky_wcs.hpp"

namespace bkt::clean {
namespace {

/// The 1-based number of the axis whose CTYPE is FREQ, or 0.
std::size_t frequency_axis(const std::string& header, std::size_t axes) {
  for (std::size_t axis = 3; axis <= axes; ++axis) {
    const std::string ctype = header_value(header, "CTYPE" + std::to_string(axis)).value_or("");
    if (classify_axis(ctype) == axis_kind::spectral && ctype.rfind("FREQ", 0) == 0) return axis;
  }
  return 0;
}

/// The layout of channel 0's file (or the cube) with one plane.
std::vector<std::int64_t> single_plane(std::vector<std::int64_t> lengths) {
  for (std::size_t axis = 2; axis < lengths.size(); ++axis) lengths[axis] = 1;
  return lengths;
}

}  // namespace

joint_outputs::joint_outputs(const std::string& prefix, const std::string& plot, std::size_t channel_files, bool mfs,
                             bkt::apps::output_set& outputs)
    : set_(outputs) {
  if (channel_files == 0) {
    const output_paths paths = output_paths_for(prefix, "");
    cubes_.emplace(paths, outputs);
    paths_ = {paths.model, paths.residual, paths.image, paths.restored_link, paths.sources, paths.components};
  }
  for (std::size_t c = 0; c < channel_files; ++c)
    for (const char* kind : {"model", "residual", "image"}) channel_files_.push_back(&add(channel_file(prefix, c, kind)));
  if (mfs)
    for (const char* kind : {"model", "residual", "image"})
      mfs_files_.push_back(&add(prefix + "-MFS-" + kind + ".fits"));
  if (channel_files > 0) {
    sources_ = &add(prefix + "-sources.txt");
    components_ = &add(prefix + "-components.json");
  }
  if (!plot.empty()) plot_ = &add(plot);
  if (channel_files > 0) {
    // From channel files the run's restored image is the MFS one: the old name leads there.
    outputs.add_link(restored_link_path(prefix), *mfs_files_[2]);
    paths_.push_back(restored_link_path(prefix));
  }
}

bkt::apps::output_file& joint_outputs::add(const std::string& path) {
  paths_.push_back(path);
  return set_.add(path);
}

void joint_outputs::write(const joint_inputs& inputs, const joint_images& images, const joint_output_notes& notes) {
  if (cubes_) {
    cubes_->write(inputs.cube, images.channels, {notes.cube_beam, notes.history, {}, std::nullopt}, notes.components);
  } else {
    for (std::size_t c = 0; c < images.channels.size(); ++c) {
      const channel_input& channel = inputs.channels[c];
      const output_units units = units_for(header_value(channel.header, "BUNIT"));
      fits_output_keys keys{units.image, notes.channel_beams[c], {}, notes.history};
      fits_output_keys model_keys = keys;
      model_keys.bunit = units.model;
      const plane_images& done = images.channels[c];
      bkt::apps::output_file* const* files = &channel_files_[3 * c];
      files[0]->write(encode_fits_image(channel.axis_lengths, channel.header, {done.model}, model_keys, files[0]->name()));
      files[1]->write(encode_fits_image(channel.axis_lengths, channel.header, {done.residual}, keys, files[1]->name()));
      files[2]->write(encode_fits_image(channel.axis_lengths, channel.header, {done.restored}, keys, files[2]->name()));
    }
    sources_->write(notes.components.sources);
    components_->write(notes.components.json);
  }
  if (images.mfs) write_mfs(inputs, *images.mfs, notes);
  if (plot_ != nullptr) write_plot(inputs, images, notes);
  for (bkt::apps::output_file* file : channel_files_) file->finish();
  for (bkt::apps::output_file* file : mfs_files_) file->finish();
}

void joint_outputs::write_mfs(const joint_inputs& inputs, const plane_images& mfs, const joint_output_notes& notes) {
  const bool own_header = !inputs.mfs_header.empty();
  const std::string& header = own_header ? inputs.mfs_header : inputs.sky_header();
  const std::vector<std::int64_t> lengths =
      own_header ? inputs.mfs_axis_lengths
                 : single_plane(inputs.from_channel_files ? inputs.channels.front().axis_lengths : inputs.cube.dirty.axis_lengths);
  const output_units units = units_for(header_value(header, "BUNIT"));
  fits_output_keys keys{units.image, notes.mfs_beam, {}, notes.history};
  // Channel 0's header describes channel 0: its FREQ axis moves to the band's centre and width.
  if (const std::size_t axis = frequency_axis(header, lengths.size()); !own_header && axis > 0 && notes.mfs_frequency_hz) {
    const std::string n = std::to_string(axis);
    keys.numbers = {{"CRPIX" + n, 1.0}, {"CRVAL" + n, *notes.mfs_frequency_hz}};
    if (notes.mfs_bandwidth_hz) keys.numbers.emplace_back("CDELT" + n, *notes.mfs_bandwidth_hz);
  }
  fits_output_keys model_keys = keys;
  model_keys.bunit = units.model;
  mfs_files_[0]->write(encode_fits_image(lengths, header, {mfs.model}, model_keys, mfs_files_[0]->name()));
  mfs_files_[1]->write(encode_fits_image(lengths, header, {mfs.residual}, keys, mfs_files_[1]->name()));
  mfs_files_[2]->write(encode_fits_image(lengths, header, {mfs.restored}, keys, mfs_files_[2]->name()));
}

void joint_outputs::write_plot(const joint_inputs& inputs, const joint_images& images, const joint_output_notes& notes) {
  // Joined channels show the MFS images, a cube cleaned plane by plane its first plane.
  const std::string& header = images.mfs && !inputs.mfs_header.empty() ? inputs.mfs_header : inputs.sky_header();
  const sky_wcs wcs(header);
  const plane_images& shown = images.mfs ? *images.mfs : images.channels.front();
  const std::vector<std::int64_t> position =
      images.mfs || inputs.from_channel_files ? std::vector<std::int64_t>{} : inputs.cube.dirty.plane_position(shown.plane);
  const output_units units = units_for(header_value(header, "BUNIT"));
  clean::write_plot(*plot_, {shown.restored, shown.residual, units.image, wcs, header, position, notes.plot_beam});
}

}  // namespace bkt::clean
