// output_file: mkstemp beside the target, write(2) through a buffer, rename on commit.
#include "bkt_apps/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <utility>

#include "bkt_apps/app_error.hpp"
#include "bkt_apps/numeric_io.hpp"

namespace bkt::apps {
namespace {

constexpr std::size_t buffer_bytes = std::size_t{1} << 20;

/// The permissions a plain open(O_CREAT, 0666) would have given: mkstemp makes files 0600.
mode_t default_file_mode() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

void write_all(int fd, const char* data, std::size_t bytes, const std::string& name) {
  while (bytes > 0) {
    const ssize_t done = ::write(fd, data, bytes);
    if (done < 0) {
      if (errno == EINTR) continue;
      throw app_error(name + ": write failed: " + std::strerror(errno));
    }
    data += done;
    bytes -= static_cast<std::size_t>(done);
  }
}

}  // namespace

output_file::output_file(const std::string& path) : path_(path) {
  buffer_.reserve(buffer_bytes);
  if (is_standard_stream(path)) {
    name_ = "<stdout>";
    fd_ = STDOUT_FILENO;
    standard_output_ = true;
    return;
  }
  name_ = path;
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0) {
    if (S_ISDIR(info.st_mode)) throw app_error(path + ": is a directory");
    if (!S_ISREG(info.st_mode)) {
      // A device, FIFO or socket (/dev/null, a named pipe): renaming over it would replace it,
      // so write to it directly; it cannot be made whole-or-nothing.
      fd_ = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
      if (fd_ < 0) throw app_error(path + ": cannot open: " + std::strerror(errno));
      return;
    }
    // A symbolic link to a file: replace the file it points to, and keep the link.
    std::error_code error;
    if (const auto target = std::filesystem::canonical(path, error); !error) path_ = target.string();
  }
  std::string pattern = path_ + ".tmp.XXXXXX";
  fd_ = ::mkstemp(pattern.data());
  if (fd_ < 0) throw app_error(path + ": cannot create: " + std::strerror(errno));
  temporary_ = pattern;
}

output_file::output_file(output_file&& other) noexcept { *this = std::move(other); }

output_file& output_file::operator=(output_file&& other) noexcept {
  if (this != &other) {
    discard();
    path_ = std::move(other.path_);
    name_ = std::move(other.name_);
    temporary_ = std::exchange(other.temporary_, {});
    fd_ = std::exchange(other.fd_, -1);
    standard_output_ = other.standard_output_;
    committed_ = std::exchange(other.committed_, true);
    offset_ = other.offset_;
    buffer_ = std::move(other.buffer_);
  }
  return *this;
}

output_file::~output_file() { discard(); }

void output_file::discard() noexcept {
  if (!standard_output_ && fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!temporary_.empty()) ::unlink(temporary_.c_str());
  temporary_.clear();
}

void output_file::write(const void* data, std::size_t bytes) {
  const char* text = static_cast<const char*>(data);
  if (buffer_.size() + bytes > buffer_bytes) flush();
  if (bytes >= buffer_bytes) {
    write_all(fd_, text, bytes, name_);
  } else {
    buffer_.insert(buffer_.end(), text, text + bytes);
  }
  offset_ += static_cast<std::int64_t>(bytes);
}

void output_file::flush() {
  write_all(fd_, buffer_.data(), buffer_.size(), name_);
  buffer_.clear();
}

void output_file::overwrite(std::int64_t offset, const void* data, std::size_t bytes) {
  if (!seekable()) throw app_error(name_ + ": cannot rewrite earlier bytes of a stream");
  flush();
  const char* text = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t done = ::pwrite(fd_, text, bytes, static_cast<off_t>(offset));
    if (done < 0) {
      if (errno == EINTR) continue;
      throw app_error(name_ + ": write failed: " + std::strerror(errno));
    }
    text += done;
    offset += done;
    bytes -= static_cast<std::size_t>(done);
  }
}

void output_file::commit() {
  flush();
  if (standard_output_) {
    committed_ = true;
    return;
  }
  if (temporary_.empty()) {  // a device or pipe, written directly
    if (::close(std::exchange(fd_, -1)) != 0) throw app_error(name_ + ": write failed: " + std::strerror(errno));
    committed_ = true;
    return;
  }
  if (::fchmod(fd_, default_file_mode()) != 0 || ::close(std::exchange(fd_, -1)) != 0)
    throw app_error(name_ + ": write failed: " + std::strerror(errno));
  if (std::rename(temporary_.c_str(), path_.c_str()) != 0)
    throw app_error(name_ + ": cannot rename the finished output into place: " + std::strerror(errno));
  temporary_.clear();
  committed_ = true;
}

void write_text_file(const std::string& path, std::string_view text) {
  output_file file(path);
  file.write(text);
  file.commit();
}

}  // namespace bkt::apps
