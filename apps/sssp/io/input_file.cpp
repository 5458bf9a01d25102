// read_input: one fstat, then read(2) straight into the buffer the parsers use.
#include "io/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "bkt_apps/app_error.hpp"
#include "parallel_for.hpp"

namespace bkt::sssp::detail {
namespace {

/// Closes a file descriptor when the read is done or fails.
class file_descriptor {
 public:
  explicit file_descriptor(int fd) : fd_(fd) {}
  file_descriptor(const file_descriptor&) = delete;
  file_descriptor& operator=(const file_descriptor&) = delete;
  ~file_descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const noexcept { return fd_; }

 private:
  int fd_;
};

bool has_gzip_name(const std::string& path) { return path.size() > 3 && path.ends_with(".gz"); }

bool has_gzip_magic(std::string_view bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f && static_cast<unsigned char>(bytes[1]) == 0x8b;
}

/// Fills the buffer with pread in 16 MiB pieces on `threads` threads (copying out of the page
/// cache goes faster on several cores). Returns how many bytes from the start arrived; less than
/// the buffer's size only when the file shrank meanwhile.
std::size_t read_pieces(int fd, text_buffer& buffer, int threads, const std::string& path) {
  constexpr std::size_t piece_bytes = std::size_t{16} << 20;
  const std::size_t pieces = (buffer.size() + piece_bytes - 1) / piece_bytes;
  std::vector<std::size_t> arrived(pieces, 0);
  parallel_for(static_cast<std::int64_t>(pieces), 1, threads, [&](std::int64_t piece, std::int64_t) {
    const std::size_t start = static_cast<std::size_t>(piece) * piece_bytes;
    const std::size_t size = std::min(piece_bytes, buffer.size() - start);
    std::size_t& done = arrived[static_cast<std::size_t>(piece)];
    while (done < size) {
      const ssize_t got = ::pread(fd, buffer.data() + start + done, size - done, static_cast<off_t>(start + done));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) throw apps::app_error(path + ": read failed: " + std::strerror(errno));
      if (got == 0) break;
      done += static_cast<std::size_t>(got);
    }
  });
  std::size_t used = 0;
  for (std::size_t piece = 0; piece < pieces && used == piece * piece_bytes; ++piece) used += arrived[piece];
  return used;
}

/// Reads the whole file: `expected` (fstat's size) in parallel pieces, then on until the end, so
/// that a file that grew meanwhile, or a pipe, is read whole too.
text_buffer read_all(int fd, std::size_t expected, int threads, const std::string& path) {
  text_buffer buffer(expected);
  std::size_t used = read_pieces(fd, buffer, threads, path);
  // pread leaves the file position alone: move it past what the pieces read, for the tail loop.
  if (used > 0 && ::lseek(fd, static_cast<off_t>(used), SEEK_SET) < 0)
    throw apps::app_error(path + ": read failed: " + std::strerror(errno));
  for (;;) {
    char probe[1 << 16];
    const bool full = used == buffer.size();
    // When the buffer is full, a small read tells whether anything is left, without doubling
    // the buffer for every file that is exactly as large as fstat said.
    char* target = full ? probe : buffer.data() + used;
    const std::size_t want = full ? sizeof(probe) : std::min<std::size_t>(buffer.size() - used, std::size_t{1} << 30);
    const ssize_t got = ::read(fd, target, want);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw apps::app_error(path + ": read failed: " + std::strerror(errno));
    }
    if (got == 0) break;
    if (full) {
      buffer.resize(used, std::max<std::size_t>(used * 2, sizeof(probe)));
      std::memcpy(buffer.data() + used, probe, static_cast<std::size_t>(got));
    }
    used += static_cast<std::size_t>(got);
  }
  buffer.truncate(used);
  return buffer;
}

}  // namespace

input_stamp stamp_input(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) throw apps::app_error(path + ": cannot open: " + std::strerror(errno));
  if (S_ISDIR(info.st_mode)) throw apps::app_error(path + ": is a directory");
  return {static_cast<std::int64_t>(info.st_size),
          static_cast<std::int64_t>(info.st_mtim.tv_sec) * 1000000000 + info.st_mtim.tv_nsec};
}

text_buffer read_input(const std::string& path, int threads) {
  const file_descriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (file.get() < 0) throw apps::app_error(path + ": cannot open: " + std::strerror(errno));
  struct stat info {};
  if (::fstat(file.get(), &info) != 0) throw apps::app_error(path + ": cannot open: " + std::strerror(errno));
  if (S_ISDIR(info.st_mode)) throw apps::app_error(path + ": is a directory");
  const std::size_t expected = S_ISREG(info.st_mode) ? static_cast<std::size_t>(info.st_size) : 0;
  text_buffer bytes = read_all(file.get(), expected, threads, path);
  if (has_gzip_name(path) || has_gzip_magic(bytes.view())) return gunzip(bytes.view(), path);
  return bytes;
}

}  // namespace bkt::sssp::detail
