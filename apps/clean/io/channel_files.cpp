// find_channel_files: the channels are the NAME-N-dirty.fits files of NAME's directory; their
// numbers must run from 0 without a gap, each with its NAME-N-psf.fits and no PSF left over.
#include "channel_files.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>
#include <system_error>

#include "bkt_apps/app_error.hpp"

namespace bkt::clean {
namespace {

namespace fs = std::filesystem;
using bkt::apps::app_error;

bool is_file(const std::string& path) {
  std::error_code error;
  return fs::is_regular_file(path, error);
}

/// The channel numbers of the directory's NAME-N-KIND.fits files, N written as channel_file
/// writes it (so that NAME-02-dirty.fits is no channel 2).
std::set<std::int64_t> numbered_files(const std::string& name, const std::string& kind) {
  const fs::path given(name);
  const fs::path directory = given.parent_path().empty() ? fs::path(".") : given.parent_path();
  const std::string head = given.filename().string() + "-", tail = "-" + kind + ".fits";
  std::set<std::int64_t> numbers;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(directory, error)) {
    const std::string file = entry.path().filename().string();
    if (file.size() <= head.size() + tail.size() || file.compare(0, head.size(), head) != 0 ||
        file.compare(file.size() - tail.size(), tail.size(), tail) != 0)
      continue;
    const std::string digits = file.substr(head.size(), file.size() - head.size() - tail.size());
    if (digits.size() > 12 || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
      continue;
    const std::int64_t number = std::stoll(digits);
    if (channel_file(given.filename().string(), number, kind) == file) numbers.insert(number);
  }
  return numbers;
}

}  // namespace

std::string channel_file(const std::string& name, std::int64_t channel, const std::string& kind) {
  char number[24];
  std::snprintf(number, sizeof number, "%04lld", static_cast<long long>(channel));
  return name + "-" + number + "-" + kind + ".fits";
}

bool names_channel_files(const std::string& name) {
  std::error_code error;
  return !fs::exists(name, error) && is_file(channel_file(name, 0, "dirty"));
}

channel_file_names find_channel_files(const std::string& name) {
  const std::set<std::int64_t> dirty = numbered_files(name, "dirty"), psf = numbered_files(name, "psf");
  channel_file_names files;
  const std::int64_t last = dirty.empty() ? -1 : *dirty.rbegin();
  for (std::int64_t channel = 0; channel <= last; ++channel) {
    if (!dirty.contains(channel))
      throw app_error(channel_file(name, channel, "dirty") + ": missing, but " + channel_file(name, last, "dirty") +
                      " exists: the channels are numbered from 0000 without a gap");
    if (!psf.contains(channel))
      throw app_error(channel_file(name, channel, "psf") + ": missing: every channel needs its PSF (" +
                      channel_file(name, channel, "dirty") + " exists)");
    files.dirty.push_back(channel_file(name, channel, "dirty"));
    files.psf.push_back(channel_file(name, channel, "psf"));
  }
  for (const std::int64_t channel : psf)
    if (channel > last)
      throw app_error(channel_file(name, channel, "psf") + ": a PSF without its channel (no " +
                      channel_file(name, channel, "dirty") + "): " + std::to_string(psf.size()) + " PSFs for " +
                      std::to_string(files.dirty.size()) + " channels");
  if (is_file(name + "-MFS-dirty.fits")) files.mfs_dirty = name + "-MFS-dirty.fits";
  if (is_file(name + "-MFS-psf.fits")) files.mfs_psf = name + "-MFS-psf.fits";
  return files;
}

}  // namespace bkt::clean
