// joint_inputs: headers first (every check between channels and the memory plan), pixels after.
#include "joint_inputs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "axis_layout.hpp"
#include "beam_psf.hpp"
#include "bkt_apps/app_error.hpp"
#include "bkt_apps/memory_limit.hpp"
#include "fits_header.hpp"
#include "sky_wcs.hpp"

namespace bkt::clean {
namespace {

using bkt::apps::app_error;

std::string size_text(const fits_image& file) { return std::to_string(file.width()) + " x " + std::to_string(file.height()); }

std::int64_t planes_of(const fits_image& file) { return pixel_count(file) / (file.width() * file.height()); }

std::string hertz(double frequency) {
  char text[32];
  std::snprintf(text, sizeof text, "%.10g Hz", frequency);
  return text;
}

/// Every file of one kind has the first one's size.
void check_same_size(const std::vector<fits_image>& files, const std::string& what) {
  for (const fits_image& file : files)
    if (file.width() != files.front().width() || file.height() != files.front().height())
      throw app_error(file.name + ": " + size_text(file) + " pixels, but " + files.front().name + " is " +
                      size_text(files.front()) + ": every channel's " + what + " has one size");
}

/// Frequencies strictly rising or falling, over the channels that have one; with a spectral fit
/// every channel needs one.
void check_frequencies(const std::vector<channel_input>& channels, bool fit_spectrum) {
  const channel_input* previous = nullptr;
  int direction = 0;  // +1 rising, -1 falling, 0 not known yet
  for (const channel_input& channel : channels) {
    if (!channel.frequency_hz) {
      if (fit_spectrum)
        throw app_error(channel.name + ": no frequency (no FREQ axis): --fit-spectral-pol fits each component over "
                        "the channels' frequencies");
      continue;
    }
    if (previous != nullptr) {
      const double step = *channel.frequency_hz - *previous->frequency_hz;
      const int sign = step > 0 ? 1 : step < 0 ? -1 : 0;
      if (sign == 0 || (direction != 0 && sign != direction))
        throw app_error(channel.name + ": frequency " + hertz(*channel.frequency_hz) + " after " +
                        hertz(*previous->frequency_hz) + " (" + previous->name +
                        "): the channels' frequencies must rise or fall strictly");
      direction = sign;
    }
    previous = &channel;
  }
}

/// Joined channels take one mask plane for all of them.
void check_joint_mask(const std::optional<fits_image>& mask) {
  if (mask && planes_of(*mask) != 1)
    throw app_error(mask->name + ": " + std::to_string(planes_of(*mask)) +
                    " planes: joined channels take one mask plane, for all of them");
}

/// The channels of a cube are its frequency planes of one polarization.
void check_no_stokes_planes(const fits_image& cube) {
  for (std::size_t axis = 2; axis < cube.axis_lengths.size(); ++axis) {
    const std::string keyword = "CTYPE" + std::to_string(axis + 1);
    if (cube.axis_lengths[axis] > 1 && classify_axis(header_value(cube.header, keyword).value_or("")) == axis_kind::stokes)
      throw app_error(cube.name + ": a Stokes axis of " + std::to_string(cube.axis_lengths[axis]) +
                      " planes (axis " + std::to_string(axis + 1) +
                      "): --join-channels joins the frequency channels of one polarization");
  }
}

void require_memory(const joint_input_settings& settings, double bytes, const std::string& subject,
                    std::int64_t channels, const fits_image& image) {
  const std::string what = std::string(settings.join ? "deconvolving " : "deconvolving, one by one, ") +
                           std::to_string(channels) + (channels == 1 ? " channel" : " channels") + " of " +
                           size_text(image) + " pixels" + (settings.join && channels > 1 ? " together" : "");
  bkt::apps::require_host_memory(settings.host_budget, static_cast<std::int64_t>(std::min(bytes, 9e18)), subject, what);
}

void refuse_all_blank(const joint_inputs& inputs, const std::string& subject) {
  if (std::all_of(inputs.channels.begin(), inputs.channels.end(), [](const channel_input& c) { return all_nan(c.dirty); }))
    throw app_error(subject + ": all pixels are NaN (blank)" +
                    std::string(inputs.channels.size() > 1 ? " in every channel" : ""));
}

}  // namespace

const image* joint_inputs::mask_of(const channel_input& channel) const { return cube.mask_plane(channel.plane); }

double joint_host_bytes(std::int64_t channels, std::int64_t engine_channels, std::int64_t width, std::int64_t height,
                        std::int64_t psf_width, std::int64_t psf_height, std::int64_t psf_planes) {
  const double image = static_cast<double>(width) * static_cast<double>(height);
  const double psf = static_cast<double>(psf_width) * static_cast<double>(psf_height);
  const double padded = (static_cast<double>(width) + static_cast<double>(psf_width) / 2) *
                        (static_cast<double>(height) + static_cast<double>(psf_height) / 2);
  // Floats: per channel dirty, model, residual, restored; per engine channel its prepared PSF,
  // 6 images (model, residual, convolved residual, convolved PSF, the two handed back), 2 of
  // circular FFT work and 3 padded ones (the PSF's spectrum, the padded image and its spectrum);
  // 8 scales' spectra, the integrated PSF and the 3 MFS images.
  const double floats = static_cast<double>(channels) * 4 * image + static_cast<double>(psf_planes) * psf +
                        static_cast<double>(engine_channels) * (psf + 8 * image + 3 * padded) + 8 * image + psf +
                        3 * image;
  return 4 * floats;
}

std::vector<double> channel_weights(const std::vector<const channel_input*>& channels, std::vector<std::string>& notes) {
  const auto weighted = [](const channel_input* c) { return c->imaging_weight && *c->imaging_weight > 0; };
  const std::size_t count = static_cast<std::size_t>(std::count_if(channels.begin(), channels.end(), weighted));
  std::vector<double> weights(channels.size(), 1.0);
  if (count == channels.size()) {
    for (std::size_t c = 0; c < channels.size(); ++c) weights[c] = *channels[c]->imaging_weight;
  } else if (count > 0) {
    const auto unweighted = std::find_if_not(channels.begin(), channels.end(), weighted);
    notes.push_back((*unweighted)->name + " has no positive WSCIMGWG: every channel weighted equally");
  }
  return weights;
}

joint_inputs load_channel_files(const channel_file_names& files, const joint_input_settings& settings) {
  joint_inputs inputs;
  inputs.from_channel_files = true;
  std::vector<fits_image> dirty, psf;
  for (std::size_t c = 0; c < files.dirty.size(); ++c) {
    dirty.push_back(read_fits_header(files.dirty[c]));
    psf.push_back(read_fits_header(files.psf[c]));
    for (const fits_image* file : {&dirty.back(), &psf.back()})
      if (planes_of(*file) != 1)
        throw app_error(file->name + ": " + std::to_string(planes_of(*file)) +
                        " planes: a channel file holds one image (a cube is given as DIRTY.fits PSF.fits)");
  }
  check_same_size(dirty, "image");
  check_same_size(psf, "PSF");
  for (std::size_t c = 0; c < dirty.size(); ++c) {
    channel_input channel;
    channel.name = dirty[c].name;
    channel.psf_name = psf[c].name;
    channel.psf_index = c;
    channel.frequency_hz = sky_wcs(dirty[c].header).frequency_hz();
    channel.imaging_weight = header_number(dirty[c].header, "WSCIMGWG");
    channel.header = dirty[c].header;
    channel.axis_lengths = dirty[c].axis_lengths;
    inputs.channels.push_back(std::move(channel));
  }
  check_frequencies(inputs.channels, settings.fit_spectrum);
  if (!settings.mask_path.empty()) {
    inputs.cube.mask = read_fits_header(settings.mask_path);
    if (inputs.cube.mask->width() != dirty.front().width() || inputs.cube.mask->height() != dirty.front().height())
      throw app_error(settings.mask_path + ": " + size_text(*inputs.cube.mask) + " pixels, but " + dirty.front().name +
                      " is " + size_text(dirty.front()) + " (a mask has the image's size)");
    check_joint_mask(inputs.cube.mask);
  }
  if (!files.mfs_dirty.empty()) {
    const fits_image mfs = read_fits_header(files.mfs_dirty);
    if (mfs.width() != dirty.front().width() || mfs.height() != dirty.front().height())
      throw app_error(mfs.name + ": " + size_text(mfs) + " pixels, but " + dirty.front().name + " is " +
                      size_text(dirty.front()) + ": the MFS image has the channels' size");
    inputs.mfs_header = mfs.header;
    inputs.mfs_axis_lengths = mfs.axis_lengths;
  }
  const auto count = static_cast<std::int64_t>(dirty.size());
  require_memory(settings,
                 joint_host_bytes(count, count, dirty.front().width(), dirty.front().height(), psf.front().width(),
                                  psf.front().height(), count + (files.mfs_psf.empty() ? 0 : 1)),
                 files.dirty.front(), count, dirty.front());

  for (std::size_t c = 0; c < dirty.size(); ++c) {
    inputs.channels[c].dirty = std::move(read_fits_image(files.dirty[c]).planes.front());
    inputs.psfs.push_back(std::move(read_fits_image(files.psf[c]).planes.front()));
  }
  if (inputs.cube.mask) inputs.cube.mask = read_fits_image(settings.mask_path);
  if (!files.mfs_psf.empty()) {
    inputs.mfs_psf = std::move(read_fits_image(files.mfs_psf).planes.front());
    inputs.mfs_psf_name = files.mfs_psf;
  }
  refuse_all_blank(inputs, files.dirty.front());
  return inputs;
}

joint_inputs load_cube_channels(const std::string& dirty_path, const std::string& psf_path,
                                const joint_input_settings& settings) {
  joint_inputs inputs;
  clean_inputs& cube = inputs.cube;
  cube = read_clean_headers(dirty_path, psf_path, settings.mask_path, settings.plane);
  const std::int64_t num_planes = planes_of(cube.dirty);
  const sky_wcs wcs(cube.dirty.header);
  for (const std::int64_t plane : cube.planes) {
    channel_input channel;
    channel.name = num_planes > 1 ? dirty_path + " plane " + std::to_string(plane) : dirty_path;
    channel.plane = plane;
    channel.frequency_hz = wcs.frequency_hz(cube.dirty.plane_position(plane));
    channel.imaging_weight = header_number(cube.dirty.header, "WSCIMGWG");
    inputs.channels.push_back(std::move(channel));
  }
  if (settings.join) {
    check_no_stokes_planes(cube.dirty);
    check_frequencies(inputs.channels, settings.fit_spectrum);
    check_joint_mask(cube.mask);
  }
  // --psf-beam: no file; the PSF made from the header has the image's size.
  const bool psf_file = !psf_path.empty();
  const auto count = static_cast<std::int64_t>(cube.planes.size());
  require_memory(settings,
                 joint_host_bytes(count, settings.join ? count : 1, cube.dirty.width(), cube.dirty.height(),
                                  psf_file ? cube.psf.width() : cube.dirty.width(),
                                  psf_file ? cube.psf.height() : cube.dirty.height(), psf_file ? planes_of(cube.psf) : 1),
                 dirty_path, count, cube.dirty);

  read_clean_pixels(cube);
  if (settings.psf_from_beam) cube.psf = psf_from_header_beam(cube.dirty, wcs.scale());
  for (channel_input& channel : inputs.channels) {
    const auto plane = static_cast<std::size_t>(channel.plane);
    channel.dirty = std::move(cube.dirty.planes[plane]);
    channel.psf_index = cube.psf.num_planes() == 1 ? 0 : plane;
    channel.psf_name = cube.psf.num_planes() > 1 ? cube.psf.name + " plane " + std::to_string(plane) : cube.psf.name;
  }
  inputs.psfs = std::move(cube.psf.planes);
  return inputs;
}

}  // namespace bkt::clean
