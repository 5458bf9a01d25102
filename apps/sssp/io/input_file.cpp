// read_input_windows: one fstat, then either read(2) straight into the buffer the parsers use, or
// the gzip stream read in hash-sized pieces and inflated window by window.
#include "io/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "bkt_apps/app_error.hpp"
#include "bkt_apps/memory_limit.hpp"
#include "io/content_hash.hpp"
#include "bkt_apps/parallel_for.hpp"

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

[[noreturn]] void read_failed(const std::string& path) {
  throw apps::app_error(path + ": read failed: " + std::strerror(errno));
}

bool has_gzip_name(const std::string& path) { return path.size() > 3 && path.ends_with(".gz"); }

bool has_gzip_magic(const char* bytes, std::size_t size) {
  return size >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f && static_cast<unsigned char>(bytes[1]) == 0x8b;
}

/// Reads up to `size` bytes at the file's position (short only at the end of the file).
std::size_t read_fully(int fd, char* into, std::size_t size, const std::string& path) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t got = ::read(fd, into + done, size - done);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) read_failed(path);
    if (got == 0) break;
    done += static_cast<std::size_t>(got);
  }
  return done;
}

/// A whole file in memory, with the hashes of its pieces as far as they were taken while reading.
struct file_bytes {
  text_buffer buffer;
  std::vector<std::int64_t> hashed_size;  // per hash piece: the bytes its hash covers (0: none yet)
  std::vector<std::uint64_t> piece_hashes;
};

/// Fills the buffer with pread in 16 MiB pieces on `threads` threads (copying out of the page
/// cache goes faster on several cores), hashing each 1 MiB hash piece as soon as it lands, while it
/// is in the core's cache. Returns how many bytes from the start arrived; less than the buffer's
/// size only when the file shrank meanwhile.
std::size_t read_pieces(int fd, file_bytes& file, int threads, const std::string& path) {
  constexpr std::int64_t read_piece_bytes = std::int64_t{16} << 20;
  static_assert(read_piece_bytes % hash_piece_bytes == 0);
  const auto size = static_cast<std::int64_t>(file.buffer.size());
  const std::int64_t pieces = (size + read_piece_bytes - 1) / read_piece_bytes;
  std::vector<std::int64_t> arrived(static_cast<std::size_t>(pieces), 0);
  apps::parallel_for(pieces, 1, threads, [&](std::int64_t piece, std::int64_t) {
    const std::int64_t start = piece * read_piece_bytes;
    const std::int64_t end = std::min(size, start + read_piece_bytes);
    std::int64_t& done = arrived[static_cast<std::size_t>(piece)];
    for (std::int64_t hash_start = start; hash_start < end; hash_start += hash_piece_bytes) {
      const std::int64_t hash_end = std::min(end, hash_start + hash_piece_bytes);
      while (start + done < hash_end) {
        const ssize_t got = ::pread(fd, file.buffer.data() + start + done, static_cast<std::size_t>(hash_end - start - done),
                                    static_cast<off_t>(start + done));
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) read_failed(path);
        if (got == 0) return;  // the file shrank: the caller reads on from here
        done += got;
      }
      const auto index = static_cast<std::size_t>(hash_start / hash_piece_bytes);
      file.piece_hashes[index] = hash_piece(file.buffer.data() + hash_start, hash_end - hash_start);
      file.hashed_size[index] = hash_end - hash_start;
    }
  });
  std::int64_t used = 0;
  for (std::int64_t piece = 0; piece < pieces && used == piece * read_piece_bytes; ++piece)
    used += arrived[static_cast<std::size_t>(piece)];
  return static_cast<std::size_t>(used);
}

/// Reads the whole file: `expected` (fstat's size) in parallel pieces, then on until the end, so
/// that a file that grew meanwhile, or a pipe, is read whole too; hashes what the pieces missed.
file_bytes read_all(int fd, std::size_t expected, int threads, const std::string& path) {
  file_bytes file{text_buffer(expected), {}, {}};
  file.hashed_size.assign(static_cast<std::size_t>(count_hash_pieces(static_cast<std::int64_t>(expected))), 0);
  file.piece_hashes.assign(file.hashed_size.size(), 0);
  std::size_t used = read_pieces(fd, file, threads, path);
  text_buffer& buffer = file.buffer;
  // pread leaves the file position alone: move it past what the pieces read, for the tail loop.
  if (used > 0 && ::lseek(fd, static_cast<off_t>(used), SEEK_SET) < 0) read_failed(path);
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
      read_failed(path);
    }
    if (got == 0) break;
    if (full) {
      buffer.resize(used, std::max<std::size_t>(used * 2, sizeof(probe)));
      std::memcpy(buffer.data() + used, probe, static_cast<std::size_t>(got));
    }
    used += static_cast<std::size_t>(got);
  }
  buffer.truncate(used);
  // Pieces that the tail changed or the parallel read missed are hashed now.
  const auto total = static_cast<std::int64_t>(used);
  file.hashed_size.resize(static_cast<std::size_t>(count_hash_pieces(total)), 0);
  file.piece_hashes.resize(file.hashed_size.size(), 0);
  for (std::size_t piece = 0; piece < file.hashed_size.size(); ++piece) {
    const std::int64_t start = static_cast<std::int64_t>(piece) * hash_piece_bytes;
    const std::int64_t size = std::min(hash_piece_bytes, total - start);
    if (file.hashed_size[piece] != size) file.piece_hashes[piece] = hash_piece(buffer.data() + start, size);
  }
  return file;
}

}  // namespace

input_stamp stamp_input(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) throw apps::app_error(path + ": cannot open: " + std::strerror(errno));
  if (S_ISDIR(info.st_mode)) throw apps::app_error(path + ": is a directory");
  return {static_cast<std::int64_t>(info.st_size),
          static_cast<std::int64_t>(info.st_mtim.tv_sec) * 1000000000 + info.st_mtim.tv_nsec, S_ISREG(info.st_mode)};
}

input_summary read_input_windows(const std::string& path, const read_settings& settings,
                                 const std::function<void(const text_window&)>& consume) {
  const file_descriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (file.get() < 0) throw apps::app_error(path + ": cannot open: " + std::strerror(errno));
  struct stat info {};
  if (::fstat(file.get(), &info) != 0) throw apps::app_error(path + ": cannot open: " + std::strerror(errno));
  if (S_ISDIR(info.st_mode)) throw apps::app_error(path + ": is a directory");
  const bool regular = S_ISREG(info.st_mode);
  input_summary summary;

  char magic[2] = {};
  const bool gzip_magic = regular && ::pread(file.get(), magic, 2, 0) == 2 && has_gzip_magic(magic, 2);
  if (regular && (has_gzip_name(path) || gzip_magic)) {
    // Stream from the file: each compressed hash piece is hashed as it is read.
    std::vector<std::uint64_t> piece_hashes;
    const auto read_compressed = [&](char* into, std::size_t capacity) {
      const std::size_t got = read_fully(file.get(), into, capacity, path);
      if (got > 0) piece_hashes.push_back(hash_piece(into, static_cast<std::int64_t>(got)));
      summary.stored_bytes += static_cast<std::int64_t>(got);
      return got;
    };
    summary.gzip = true;
    summary.text_bytes = gunzip_windows(read_compressed, path, settings, consume);
    summary.content_hash = fold_piece_hashes(piece_hashes);
    return summary;
  }

  const std::size_t expected = regular ? static_cast<std::size_t>(info.st_size) : 0;
  apps::require_host_memory(settings.memory_budget, static_cast<std::int64_t>(expected), path, "reading the file");
  file_bytes bytes = read_all(file.get(), expected, settings.threads, path);
  summary.content_hash = fold_piece_hashes(bytes.piece_hashes);
  summary.stored_bytes = static_cast<std::int64_t>(bytes.buffer.size());
  if (has_gzip_name(path) || has_gzip_magic(bytes.buffer.data(), bytes.buffer.size())) {
    // A pipe: its compressed bytes are in memory already.
    std::size_t offset = 0;
    const auto read_compressed = [&](char* into, std::size_t capacity) {
      const std::size_t got = std::min(capacity, bytes.buffer.size() - offset);
      std::memcpy(into, bytes.buffer.data() + offset, got);
      offset += got;
      return got;
    };
    summary.gzip = true;
    summary.text_bytes = gunzip_windows(read_compressed, path, settings, consume);
    return summary;
  }
  summary.text_bytes = summary.stored_bytes;
  consume(text_window{bytes.buffer, 1, true});
  return summary;
}

text_buffer read_input(const std::string& path, int threads) {
  text_buffer whole;
  std::size_t used = 0;
  read_settings settings;
  settings.threads = threads;
  read_input_windows(path, settings, [&](const text_window& window) {
    if (used + window.text.size() > whole.capacity()) whole.resize(used, std::max(2 * whole.capacity(), used + window.text.size()));
    std::memcpy(whole.data() + used, window.text.data(), window.text.size());
    used += window.text.size();
  });
  whole.set_size(used);
  return whole;
}

}  // namespace bkt::sssp::detail
