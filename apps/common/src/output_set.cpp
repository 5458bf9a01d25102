// output_set: the checks made when an output is added, and the order of commit_all().
#include "bkt_apps/output_set.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <optional>

#include "bkt_apps/app_error.hpp"
#include "bkt_apps/numeric_io.hpp"

namespace bkt::apps {
namespace {

/// Device and inode of an existing regular file (through symbolic links); nullopt otherwise.
std::optional<std::pair<dev_t, ino_t>> regular_file_identity(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return std::nullopt;
  return std::pair{info.st_dev, info.st_ino};
}

/// Device and inode of an existing regular file itself, a symbolic link not followed: what a link
/// output would replace.
std::optional<std::pair<dev_t, ino_t>> entry_identity(const std::string& path) {
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return std::nullopt;
  return std::pair{info.st_dev, info.st_ino};
}

/// Where a link output lands: its directory resolved, its own name kept (an old link there is
/// replaced, not followed).
std::string link_place(const std::string& path) {
  const std::filesystem::path given(path);
  std::error_code error;
  const auto directory = std::filesystem::weakly_canonical(given.parent_path().empty() ? "." : given.parent_path(), error);
  return error ? path : (directory / given.filename()).string();
}

/// Where a file output lands, for spotting two outputs given the same place under different
/// spellings (./a, a, dir/../a, a link to a); empty for a device or FIFO, which may take several.
std::string landing_place(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode)) return {};
  std::error_code error;
  const auto place = std::filesystem::weakly_canonical(path, error);
  return error ? path : place.string();
}

app_error input_conflict(const std::string& path) {
  return usage_error(path + ": is also an input of this run; an output never replaces an input");
}

}  // namespace

void output_set::protect_input(const std::string& path) {
  if (is_standard_stream(path)) return;
  const auto identity = regular_file_identity(path);
  if (!identity) return;
  inputs_.push_back(*identity);
  for (const entry& output : outputs_)
    if (!output.file->is_stream() && regular_file_identity(output.canonical_path) == identity)
      throw input_conflict(output.file->name());
  for (const link_entry& output : links_)
    if (entry_identity(output.canonical_path) == identity) throw input_conflict(output.link->name());
}

void output_set::check_against_inputs(const std::string& path) const {
  const auto identity = regular_file_identity(path);
  if (identity && std::find(inputs_.begin(), inputs_.end(), *identity) != inputs_.end()) throw input_conflict(path);
}

output_file& output_set::add_output(const std::string& path, bool summary) {
  entry added;
  added.summary = summary;
  if (is_standard_stream(path)) {
    for (const entry& output : outputs_)
      if (output.file->is_standard_output()) throw usage_error("standard output is given for two outputs");
  } else {
    check_against_inputs(path);
    added.canonical_path = landing_place(path);
    const auto identity = regular_file_identity(path);
    for (const entry& output : outputs_) {
      if (output.canonical_path.empty()) continue;
      if (output.canonical_path == added.canonical_path ||
          (identity && regular_file_identity(output.canonical_path) == identity))
        throw usage_error(path + ": given for two outputs");
    }
    for (const link_entry& output : links_)
      if (output.canonical_path == added.canonical_path) throw usage_error(path + ": given for two outputs");
  }
  added.file = std::make_unique<output_file>(path);
  outputs_.push_back(std::move(added));
  return *outputs_.back().file;
}

output_file& output_set::add(const std::string& path) { return add_output(path, false); }

output_link& output_set::add_link(const std::string& path, const output_file& target) {
  if (target.is_stream()) throw app_error(path + ": a link needs a file to point at, not " + target.name());
  if (const auto identity = entry_identity(path);
      identity && std::find(inputs_.begin(), inputs_.end(), *identity) != inputs_.end())
    throw input_conflict(path);
  link_entry added;
  added.canonical_path = link_place(path);
  // The link replaces its own entry, so only the places themselves may not meet: a file output
  // reached through an old link of this name is no clash.
  for (const entry& output : outputs_)
    if (output.canonical_path == added.canonical_path) throw usage_error(path + ": given for two outputs");
  for (const link_entry& output : links_)
    if (output.canonical_path == added.canonical_path) throw usage_error(path + ": given for two outputs");
  // Beside the target (the usual case) the link holds its bare name, so that the pair can move.
  std::filesystem::path relative = std::filesystem::path(target.name()).lexically_relative(
      std::filesystem::path(path).parent_path());
  if (relative.empty()) relative = std::filesystem::absolute(target.name());
  added.link = std::make_unique<output_link>(path, relative.string());
  links_.push_back(std::move(added));
  return *links_.back().link;
}

output_file& output_set::add_summary(const std::string& path) { return add_output(path, true); }

void output_set::finish_all() {
  for (entry& output : outputs_) output.file->finish();
}

void output_set::commit_all() {
  // Every write error (a full disk shows at the last flush) before the first rename.
  finish_all();
  const auto rank = [](const entry& output) {
    if (output.file->is_standard_output()) return 3;
    if (output.file->is_stream()) return 2;
    return output.summary ? 1 : 0;
  };
  for (int stage = 0; stage <= 3; ++stage) {
    for (entry& output : outputs_)
      if (rank(output) == stage) output.file->commit();
    // Links right after the files they point at.
    if (stage == 0)
      for (link_entry& output : links_) output.link->commit();
  }
}

}  // namespace bkt::apps
