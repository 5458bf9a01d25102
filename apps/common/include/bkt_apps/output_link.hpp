// A symbolic link that appears with a run's other outputs or not at all: an old name kept for a
// file the run now writes under a new one (bkt-clean's P-restored.fits -> P-image.fits). Like an
// output_file, it is made up front as a temporary NAME.tmp.XXXXXX beside its place (so that an
// unwritable directory fails before the work), removed when the run fails or a fatal signal
// comes, and renamed into place by commit(). The rename replaces the directory entry itself:
// an old link, or an old file of that name, is replaced, never what a link points to.
// A run makes them through bkt::apps::output_set::add_link (output_set.hpp).
#pragma once

#include <string>

namespace bkt::apps {

class output_link {
 public:
  /// Creates the temporary link at once, pointing at `target` as given (a name relative to the
  /// link's directory, or an absolute path); throws app_error "PATH: cannot create: REASON" or
  /// "PATH: is a directory".
  output_link(const std::string& path, const std::string& target);
  output_link(const output_link&) = delete;
  output_link& operator=(const output_link&) = delete;
  ~output_link();

  /// The path as given, for messages.
  const std::string& name() const noexcept { return path_; }
  /// What the link points at.
  const std::string& target() const noexcept { return target_; }
  /// Renames the temporary into place; throws app_error "PATH: cannot rename ...". Once only.
  void commit();

 private:
  std::string path_;
  std::string target_;
  std::string temporary_;  // empty once committed
  int cleanup_slot_ = -1;  // the temporary's place in the signal handler's list
};

}  // namespace bkt::apps
