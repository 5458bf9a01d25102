// The inputs of a run through the joint engine (--multiscale, --join-channels): its channels,
// read from WSClean's per-channel files (channel_files.hpp) or from the planes of a cube (or one
// image), with each channel's frequency, imaging weight and header, and the checks that concern
// several channels. A run without --join-channels deconvolves each channel alone.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "channel_files.hpp"
#include "clean_inputs.hpp"

namespace bkt::clean {

/// One channel as read.
struct channel_input {
  std::string name;                          // the dirty file, or "CUBE plane N", for messages
  std::string psf_name;                      // likewise its PSF
  std::int64_t plane = 0;                    // its plane in the cube (0 for a channel file)
  image dirty;
  std::size_t psf_index = 0;                 // into joint_inputs::psfs
  std::optional<double> frequency_hz;        // the FREQ axis's world coordinate at the plane
  std::optional<double> imaging_weight;      // WSClean's WSCIMGWG
  std::string header;                        // channel files: the file's own header (outputs carry it)
  std::vector<std::int64_t> axis_lengths;    // channel files: the file's axes
};

struct joint_inputs {
  bool from_channel_files = false;
  std::vector<channel_input> channels;
  std::vector<image> psfs;                    // as read, one per channel or one for all
  /// From a cube: its headers and plane selection (the pixels moved into `channels`), which the
  /// outputs follow; from channel files: the mask alone, if any.
  clean_inputs cube;
  std::optional<image> mfs_psf;               // NAME-MFS-psf.fits: the MFS restoring beam
  std::string mfs_psf_name;
  std::string mfs_header;                     // NAME-MFS-dirty.fits's header: the MFS outputs' header
  std::vector<std::int64_t> mfs_axis_lengths;
  std::vector<std::string> notes;

  const image& psf_of(const channel_input& channel) const { return psfs[channel.psf_index]; }
  /// The user's mask for channel `channel` (one plane for joined channels), or nullptr.
  const image* mask_of(const channel_input& channel) const;
  /// The header of channel 0, which the sky positions and the MFS outputs follow.
  const std::string& sky_header() const { return from_channel_files ? channels.front().header : cube.dirty.header; }
};

/// What the inputs' checks depend on.
struct joint_input_settings {
  bool join = false;              // the channels deconvolved together
  bool fit_spectrum = false;      // --fit-spectral-pol: every channel needs a frequency
  std::string mask_path;          // --mask
  std::optional<std::int64_t> plane;  // --plane (cubes, without --join-channels)
  bool psf_from_beam = false;     // --psf-beam (without --join-channels)
  std::int64_t host_budget = 0;   // bkt::apps::host_memory_budget
};

/// Reads WSClean's channel files. Every check that concerns several files, and the memory plan
/// (joint_host_bytes), come before a pixel is read: one size for every channel image and for every
/// PSF, one plane per file, frequencies strictly rising or falling, a frequency in every channel
/// for --fit-spectral-pol, a mask of one plane. Errors name the file (bkt::apps::app_error).
joint_inputs load_channel_files(const channel_file_names& files, const joint_input_settings& settings);

/// Reads a cube (or one image) and its PSF, its planes the channels, with the checks of
/// load_clean_inputs and, joined, those above and no Stokes axis longer than 1.
joint_inputs load_cube_channels(const std::string& dirty_path, const std::string& psf_path,
                                const joint_input_settings& settings);

/// Each channel's weight in the integrated image: WSClean's WSCIMGWG when every channel has a
/// positive one, else 1 each (with a note when only some have it).
std::vector<double> channel_weights(const std::vector<const channel_input*>& channels, std::vector<std::string>& notes);

/// The host bytes a joint run holds at its peak, from the sizes alone: every channel's dirty image,
/// model, residual and restored image; the PSFs as read; for the channels of one engine run their
/// prepared PSFs and the engine's images (model, residual, the scale-convolved residual and PSF,
/// the models and residuals it hands back) and each channel's zero-padded FFT convolution; the
/// scales' spectra and the MFS images. A lower bound: smaller buffers are left out.
double joint_host_bytes(std::int64_t channels, std::int64_t engine_channels, std::int64_t width, std::int64_t height,
                        std::int64_t psf_width, std::int64_t psf_height, std::int64_t psf_planes);

}  // namespace bkt::clean
