// WSClean's per-channel files of a run with -channels-out N, found by their name prefix:
// NAME-0000-dirty.fits, NAME-0000-psf.fits, NAME-0001-dirty.fits, ..., and the optional
// NAME-MFS-dirty.fits and NAME-MFS-psf.fits (the channel-integrated images). Names only: the
// files are read by joint_inputs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bkt::clean {

struct channel_file_names {
  std::vector<std::string> dirty, psf;  // per channel, from 0000 on
  std::string mfs_dirty, mfs_psf;       // empty when absent
};

/// NAME-000N-KIND.fits, N with at least four digits as WSClean writes it ("sim-0002-psf.fits").
std::string channel_file(const std::string& name, std::int64_t channel, const std::string& kind);

/// Whether `name` names channel files: it is not a file itself, and NAME-0000-dirty.fits exists.
bool names_channel_files(const std::string& name);

/// The channel files of `name`. Throws bkt::apps::app_error (exit 1) naming the file for a gap in
/// the channels (a NAME-000N-dirty.fits missing while a later one exists), a channel without its
/// PSF, and a PSF without its channel.
channel_file_names find_channel_files(const std::string& name);

}  // namespace bkt::clean
