// spill_file: an unnamed file (apps::create_unnamed_file), then pwrite/pread at known offsets.
#include "spill_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "bkt_apps/app_error.hpp"
#include "bkt_apps/numeric_io.hpp"
#include "bkt_apps/output_file.hpp"

namespace bkt::radixsort {

spill_file::spill_file(const std::string& directory) : directory_(directory) {
  fd_ = apps::create_unnamed_file(directory);
  if (fd_ < 0)
    throw apps::app_error(directory + ": cannot create a temporary file for sorted runs: " + std::strerror(errno));
}

spill_file::~spill_file() {
  if (fd_ >= 0) ::close(fd_);
}

std::int64_t spill_file::append(const void* data, std::size_t bytes) {
  const std::int64_t start = claim(bytes);
  write_at(start, data, bytes);
  return start;
}

void spill_file::write_at(std::int64_t offset, const void* data, std::size_t bytes) const {
  const char* text = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t done = ::pwrite(fd_, text, bytes, static_cast<off_t>(offset));
    if (done < 0) {
      if (errno == EINTR) continue;
      throw apps::app_error(directory_ + ": writing sorted runs failed: " + std::strerror(errno));
    }
    text += done;
    offset += done;
    bytes -= static_cast<std::size_t>(done);
  }
}

void spill_file::read_at(std::int64_t offset, void* data, std::size_t bytes) const {
  char* text = static_cast<char*>(data);
  while (bytes > 0) {
    const ssize_t done = ::pread(fd_, text, bytes, static_cast<off_t>(offset));
    if (done <= 0) {
      if (done < 0 && errno == EINTR) continue;
      throw apps::app_error(directory_ + ": reading sorted runs back failed: " +
                            (done == 0 ? std::string("file shorter than written") : std::strerror(errno)));
    }
    text += done;
    offset += done;
    bytes -= static_cast<std::size_t>(done);
  }
}

std::string spill_directory(const std::string& chosen, const std::string& output_path) {
  if (!chosen.empty()) return chosen;
  struct stat info {};
  const bool output_is_file =
      !apps::is_standard_stream(output_path) && (::stat(output_path.c_str(), &info) != 0 || S_ISREG(info.st_mode));
  if (output_is_file) {  // not beside /dev/null or a pipe
    const std::size_t slash = output_path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : output_path.substr(0, slash);
  }
  return apps::temporary_directory();
}

}  // namespace bkt::radixsort
