// output_file: mkstemp beside the target, write(2) through a buffer, rename on commit; a stream's
// bytes are held in memory, then in an unnamed file, and copied out on commit.
#include "bkt_apps/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <utility>

#include "bkt_apps/app_error.hpp"
#include "bkt_apps/numeric_io.hpp"
#include "signal_cleanup.hpp"

namespace bkt::apps {
namespace {

constexpr std::size_t buffer_bytes = std::size_t{1} << 20;

/// The permissions a plain open(O_CREAT, 0666) would have given: mkstemp makes files 0600.
/// The umask is read from /proc (setting it to read it would race with files other threads
/// create); only where /proc lacks it is it set and restored, once.
mode_t default_file_mode() {
  static const mode_t mode = [] {
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
      if (line.rfind("Umask:", 0) == 0) return static_cast<mode_t>(0666 & ~std::stoul(line.substr(6), nullptr, 8));
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return static_cast<mode_t>(0666 & ~mask);
  }();
  return mode;
}

std::string failure(const std::string& name, const char* what) { return name + ": " + what + ": " + std::strerror(errno); }

void write_all(int fd, const char* data, std::size_t bytes, const std::string& name) {
  while (bytes > 0) {
    const ssize_t done = ::write(fd, data, bytes);
    if (done < 0) {
      if (errno == EINTR) continue;
      throw app_error(failure(name, "write failed"));
    }
    data += done;
    bytes -= static_cast<std::size_t>(done);
  }
}

void write_all_at(int fd, const char* data, std::size_t bytes, std::int64_t offset, const std::string& name) {
  while (bytes > 0) {
    const ssize_t done = ::pwrite(fd, data, bytes, static_cast<off_t>(offset));
    if (done < 0) {
      if (errno == EINTR) continue;
      throw app_error(failure(name, "write failed"));
    }
    data += done;
    offset += done;
    bytes -= static_cast<std::size_t>(done);
  }
}

/// Copies the first `bytes` of `from` to `to`.
void copy_held_bytes(int from, std::int64_t bytes, int to, const std::string& name) {
  std::vector<char> block(std::min<std::int64_t>(bytes, buffer_bytes));
  for (std::int64_t at = 0; at < bytes;) {
    const ssize_t got = ::pread(from, block.data(), std::min<std::int64_t>(bytes - at, buffer_bytes), at);
    if (got <= 0) {
      if (got < 0 && errno == EINTR) continue;
      throw app_error(got < 0 ? failure(name, "reading the held output back failed")
                              : name + ": reading the held output back failed: it is shorter than written");
    }
    write_all(to, block.data(), static_cast<std::size_t>(got), name);
    at += got;
  }
}

}  // namespace

std::string temporary_directory() {
  const char* directory = std::getenv("TMPDIR");
  return directory != nullptr && *directory != '\0' ? directory : "/tmp";
}

int create_unnamed_file(const std::string& directory) {
#ifdef O_TMPFILE
  const int fd = ::open(directory.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  // Filesystems and kernels without O_TMPFILE say so with one of these; fall back to mkstemp.
  if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)) return fd;
#endif
  std::string pattern = directory + "/bkt-scratch.tmp.XXXXXX";
  detail::temporary_guard guard;  // the file has a name until the unlink
  const int fd_made = ::mkstemp(pattern.data());
  if (fd_made >= 0) {
    const int slot = guard.arm(pattern);
    ::unlink(pattern.c_str());
    detail::forget_temporary(slot);
  }
  return fd_made;
}

output_file::output_file(const std::string& path) : path_(path) {
  if (is_standard_stream(path)) {
    name_ = "<stdout>";
    standard_output_ = true;
    struct stat info {};
    if (::fstat(STDOUT_FILENO, &info) == 0 && (S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode)) &&
        ::isatty(STDOUT_FILENO) == 0) {
      kind_ = kind::direct_stream;  // /dev/null: nothing to hold back
      fd_ = STDOUT_FILENO;
    } else {
      kind_ = kind::held_stream;
      stream_fd_ = STDOUT_FILENO;
    }
    return;
  }
  name_ = path;
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0) {
    if (S_ISDIR(info.st_mode)) throw app_error(path + ": is a directory");
    if (S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode)) {
      // Renaming over a device would replace it: write to it instead. A terminal gets the bytes
      // at the end like standard output; /dev/null as they come.
      const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
      if (fd < 0) throw app_error(failure(path, "cannot open"));
      kind_ = ::isatty(fd) != 0 ? kind::held_stream : kind::direct_stream;
      (kind_ == kind::held_stream ? stream_fd_ : fd_) = fd;
      return;
    }
    if (!S_ISREG(info.st_mode)) {
      // A FIFO (or socket): opening one for writing waits for a reader, so commit() opens it.
      if (::access(path.c_str(), W_OK) != 0) throw app_error(failure(path, "cannot open"));
      kind_ = kind::held_stream;
      return;
    }
    // A symbolic link to a file: replace the file it points to, and keep the link.
    std::error_code error;
    if (const auto target = std::filesystem::canonical(path, error); !error) path_ = target.string();
  }
  std::string pattern = path_ + ".tmp.XXXXXX";
  // The signal handler knows of the temporary from its creation on.
  detail::temporary_guard guard;
  const int fd = ::mkstemp(pattern.data());
  if (fd < 0) throw app_error(failure(path, "cannot create"));
  cleanup_slot_ = guard.arm(pattern);
  // Closed until the first write, so that a run can hold thousands of outputs at once.
  ::close(fd);
  temporary_ = std::move(pattern);
}

output_file::output_file(output_file&& other) noexcept { *this = std::move(other); }

output_file& output_file::operator=(output_file&& other) noexcept {
  if (this != &other) {
    discard();
    path_ = std::move(other.path_);
    name_ = std::move(other.name_);
    temporary_ = std::exchange(other.temporary_, {});
    kind_ = other.kind_;
    fd_ = std::exchange(other.fd_, -1);
    stream_fd_ = std::exchange(other.stream_fd_, -1);
    cleanup_slot_ = std::exchange(other.cleanup_slot_, -1);
    standard_output_ = other.standard_output_;
    finished_ = std::exchange(other.finished_, true);
    committed_ = std::exchange(other.committed_, true);
    offset_ = other.offset_;
    flushed_ = other.flushed_;
    buffer_ = std::move(other.buffer_);
  }
  return *this;
}

output_file::~output_file() { discard(); }

void output_file::discard() noexcept {
  // Standard output is never closed; anything else this object opened is.
  if (fd_ >= 0 && !(standard_output_ && kind_ == kind::direct_stream)) ::close(fd_);
  if (stream_fd_ >= 0 && !standard_output_) ::close(stream_fd_);
  fd_ = stream_fd_ = -1;
  if (!temporary_.empty()) ::unlink(temporary_.c_str());
  temporary_.clear();
  detail::forget_temporary(std::exchange(cleanup_slot_, -1));
}

void output_file::open_destination() {
  if (fd_ >= 0) return;
  if (kind_ == kind::file) {
    fd_ = ::open(temporary_.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) throw app_error(failure(name_, "write failed"));
  } else {  // a held stream outgrew its buffer
    const std::string directory = temporary_directory();
    fd_ = create_unnamed_file(directory);
    if (fd_ < 0) throw app_error(failure(name_, ("cannot hold the output in " + directory).c_str()));
  }
}

void output_file::write_through(const char* data, std::size_t bytes) {
  open_destination();
  write_all(fd_, data, bytes, name_);
  flushed_ += static_cast<std::int64_t>(bytes);
}

void output_file::flush() {
  if (buffer_.empty()) return;
  write_through(buffer_.data(), buffer_.size());
  buffer_.clear();
}

void output_file::write(const void* data, std::size_t bytes) {
  if (finished_) throw std::logic_error(name_ + ": written after finish()");
  const char* text = static_cast<const char*>(data);
  if (buffer_.capacity() == 0) buffer_.reserve(buffer_bytes);
  if (buffer_.size() + bytes > buffer_bytes) flush();
  if (bytes >= buffer_bytes) {
    write_through(text, bytes);
  } else {
    buffer_.insert(buffer_.end(), text, text + bytes);
  }
  offset_ += static_cast<std::int64_t>(bytes);
}

void output_file::overwrite(std::int64_t offset, const void* data, std::size_t bytes) {
  if (!seekable()) throw app_error(name_ + ": cannot rewrite earlier bytes of a stream");
  if (finished_ || offset < 0 || offset + static_cast<std::int64_t>(bytes) > offset_)
    throw std::logic_error(name_ + ": overwrite outside the bytes written");
  const char* text = static_cast<const char*>(data);
  const std::int64_t end = offset + static_cast<std::int64_t>(bytes);
  // Bytes already flushed are rewritten in the file, bytes still buffered in the buffer.
  if (offset < flushed_) {
    const std::int64_t in_file = std::min(end, flushed_) - offset;
    write_all_at(fd_, text, static_cast<std::size_t>(in_file), offset, name_);
    text += in_file;
    offset += in_file;
  }
  if (offset < end) std::memcpy(buffer_.data() + (offset - flushed_), text, static_cast<std::size_t>(end - offset));
}

void output_file::finish() {
  if (finished_) return;
  switch (kind_) {
    case kind::file: {
      flush();
      const mode_t mode = default_file_mode();
      if ((fd_ >= 0 ? ::fchmod(fd_, mode) : ::chmod(temporary_.c_str(), mode)) != 0 ||
          (fd_ >= 0 && ::close(std::exchange(fd_, -1)) != 0))
        throw app_error(failure(name_, "write failed"));
      buffer_ = {};
      break;
    }
    case kind::held_stream:
      // Bytes that outgrew the buffer join the others in the held file; a small output stays
      // in memory until commit().
      if (fd_ >= 0) {
        flush();
        buffer_ = {};
      }
      break;
    case kind::direct_stream:
      flush();
      if (!standard_output_ && ::close(std::exchange(fd_, -1)) != 0) throw app_error(failure(name_, "write failed"));
      buffer_ = {};
      break;
  }
  finished_ = true;
}

void output_file::commit() {
  finish();
  if (committed_) return;
  if (kind_ == kind::file) {
    if (std::rename(temporary_.c_str(), path_.c_str()) != 0)
      throw app_error(failure(name_, "cannot rename the finished output into place"));
    temporary_.clear();
    detail::forget_temporary(std::exchange(cleanup_slot_, -1));
  } else if (kind_ == kind::held_stream) {
    if (stream_fd_ < 0) {
      stream_fd_ = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
      if (stream_fd_ < 0) throw app_error(failure(name_, "cannot open"));
    }
    if (standard_output_) std::fflush(stdout);  // what the tool printed through stdio comes first
    if (fd_ >= 0) {
      copy_held_bytes(fd_, flushed_, stream_fd_, name_);
      ::close(std::exchange(fd_, -1));
    }
    write_all(stream_fd_, buffer_.data(), buffer_.size(), name_);
    buffer_ = {};
    if (!standard_output_ && ::close(std::exchange(stream_fd_, -1)) != 0) throw app_error(failure(name_, "write failed"));
  }
  committed_ = true;
}

void write_text_file(const std::string& path, std::string_view text) {
  output_file file(path);
  file.write(text);
  file.commit();
}

}  // namespace bkt::apps
