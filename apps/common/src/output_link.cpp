// output_link: a symbolic link made under a temporary name beside its place and renamed there.
#include "bkt_apps/output_link.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "bkt_apps/app_error.hpp"
#include "signal_cleanup.hpp"

namespace bkt::apps {
namespace {

std::string failure(const std::string& name, const char* what) { return name + ": " + what + ": " + std::strerror(errno); }

/// A symbolic link to `target` at a fresh name PATH.tmp.XXXXXX. mkstemp picks the name (and
/// reserves it as a file, which symlink() cannot replace), so the file goes and the link takes
/// its name at once; should another process take the name in between, another name is drawn.
std::string make_temporary_link(const std::string& path, const std::string& target) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string pattern = path + ".tmp.XXXXXX";
    const int fd = ::mkstemp(pattern.data());
    if (fd < 0) throw app_error(failure(path, "cannot create"));
    ::close(fd);
    ::unlink(pattern.c_str());
    if (::symlink(target.c_str(), pattern.c_str()) == 0) return pattern;
    if (errno != EEXIST) throw app_error(failure(path, "cannot create"));
  }
  errno = EEXIST;
  throw app_error(failure(path, "cannot create"));
}

}  // namespace

output_link::output_link(const std::string& path, const std::string& target) : path_(path), target_(target) {
  struct stat info {};
  // lstat: a link of that name from an earlier run is replaced, not followed.
  if (::lstat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode)) throw app_error(path + ": is a directory");
  // The signal handler knows of the temporary from its creation on.
  detail::temporary_guard guard;
  std::string temporary = make_temporary_link(path, target);
  cleanup_slot_ = guard.arm(temporary);
  temporary_ = std::move(temporary);
}

output_link::~output_link() {
  if (!temporary_.empty()) ::unlink(temporary_.c_str());
  detail::forget_temporary(cleanup_slot_);
}

void output_link::commit() {
  if (temporary_.empty()) return;
  if (std::rename(temporary_.c_str(), path_.c_str()) != 0)
    throw app_error(failure(path_, "cannot rename the finished output into place"));
  temporary_.clear();
  detail::forget_temporary(std::exchange(cleanup_slot_, -1));
}

}  // namespace bkt::apps
