// input_stream: read(2) with a buffer, and every failure turned into a message with the file name.
#include "input_stream.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string_view>
#include <thread>
#include <vector>

#include "bkt_apps/app_error.hpp"
#include "bkt_apps/numeric_io.hpp"

namespace bkt::apps::detail {
namespace {

constexpr std::size_t buffer_bytes = std::size_t{1} << 20;
/// The most one read(2) asks for when it goes straight to the caller's memory. A read into pages
/// not yet touched faults them in inside the kernel; one call of hundreds of megabytes ran several
/// times slower than calls of a few MiB (docs/tools/bkt-radixsort.md).
constexpr std::size_t direct_read_bytes = std::size_t{4} << 20;

/// A read of at least this much from a regular file is spread over threads (read_parallel).
constexpr std::size_t parallel_read_bytes = std::size_t{64} << 20;
/// Each thread's pread(2) calls are this long.
constexpr std::size_t parallel_block_bytes = std::size_t{8} << 20;
/// Threads of one parallel read: the page cache copies and the page faults of fresh memory scale
/// with cores up to the memory bandwidth.
constexpr unsigned parallel_read_threads = 8;

}  // namespace

input_stream::input_stream(const std::string& path) : buffer_(buffer_bytes) {
  if (is_standard_stream(path)) {
    name_ = "<stdin>";
    fd_ = STDIN_FILENO;
  } else {
    name_ = path;
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw app_error(path + ": cannot open: " + std::strerror(errno));
    owns_fd_ = true;
  }
  struct stat info {};
  if (::fstat(fd_, &info) != 0) throw app_error(name_ + ": cannot stat: " + std::strerror(errno));
  if (S_ISDIR(info.st_mode)) {
    if (owns_fd_) ::close(fd_);
    throw app_error(name_ + ": is a directory");
  }
  if (S_ISREG(info.st_mode) && owns_fd_) file_size_ = static_cast<std::int64_t>(info.st_size);
}

input_stream::~input_stream() {
  if (owns_fd_) ::close(fd_);
}

bool input_stream::fill() {
  if (at_end_) return false;
  if (begin_ > 0) {  // keep the unread bytes at the front so that the buffer never grows
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == buffer_.size()) buffer_.resize(buffer_.size() * 2);  // one line longer than the buffer
  const std::size_t got = read_some(buffer_.data() + end_, buffer_.size() - end_);
  if (got == 0) {
    at_end_ = true;
    return false;
  }
  end_ += got;
  return true;
}

std::size_t input_stream::read_some(char* out, std::size_t bytes) {
  if (range_end_) bytes = static_cast<std::size_t>(std::min<std::int64_t>(static_cast<std::int64_t>(bytes), *range_end_ - fetched_));
  if (bytes == 0) return 0;
  for (;;) {
    const ssize_t got = ::read(fd_, out, bytes);
    if (got >= 0) {
      fetched_ += got;
      return static_cast<std::size_t>(got);
    }
    if (errno != EINTR) throw app_error(name_ + ": read failed: " + std::strerror(errno));
  }
}

std::size_t input_stream::read_parallel(char* out, std::size_t bytes) {
  const std::int64_t end = std::min(range_end_.value_or(*file_size_), *file_size_);
  bytes = static_cast<std::size_t>(std::clamp<std::int64_t>(end - fetched_, 0, static_cast<std::int64_t>(bytes)));
  if (bytes == 0) return 0;
  const std::int64_t start = fetched_;
  const std::size_t blocks = (bytes + parallel_block_bytes - 1) / parallel_block_bytes;
  std::atomic<std::size_t> next_block{0};
  std::atomic<bool> short_read{false};
  std::vector<int> errors(parallel_read_threads, 0);
  // Thread t takes blocks in turn until none is left; a failure stops the others at their next block.
  const auto work = [&](unsigned thread) {
    for (std::size_t block; !short_read && (block = next_block++) < blocks;) {
      const std::size_t offset = block * parallel_block_bytes;
      const std::size_t length = std::min(parallel_block_bytes, bytes - offset);
      for (std::size_t done = 0; done < length;) {
        const ssize_t got = ::pread(fd_, out + offset + done, length - done, start + static_cast<std::int64_t>(offset + done));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) {
          errors[thread] = got < 0 ? errno : 0;
          short_read = true;
          return;
        }
        done += static_cast<std::size_t>(got);
      }
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < parallel_read_threads; ++t) threads.emplace_back(work, t);
  work(0);
  for (std::thread& thread : threads) thread.join();
  for (const int error : errors)
    if (error != 0) throw app_error(name_ + ": read failed: " + std::strerror(error));
  if (short_read) return read_some(out, std::min(bytes, direct_read_bytes));  // the file shrank: read what is left
  fetched_ += static_cast<std::int64_t>(bytes);
  if (::lseek(fd_, fetched_, SEEK_SET) != fetched_) throw app_error(name_ + ": cannot seek: " + std::strerror(errno));
  return bytes;
}

void input_stream::seek_range(std::int64_t begin, std::int64_t end) {
  if (!file_size_) throw std::logic_error(name_ + ": a part of standard input or a pipe cannot be read");
  if (::lseek(fd_, begin, SEEK_SET) != begin) throw app_error(name_ + ": cannot seek: " + std::strerror(errno));
  begin_ = end_ = 0;
  at_end_ = false;
  position_ = fetched_ = begin;
  range_end_ = end;
}

template <class Visit>
void input_stream::scan_from(std::int64_t offset, std::int64_t end, Visit&& block) const {
  std::vector<char> bytes(std::size_t{1} << 16);
  while (offset < end) {
    const auto want = static_cast<std::size_t>(std::min<std::int64_t>(static_cast<std::int64_t>(bytes.size()), end - offset));
    const ssize_t got = ::pread(fd_, bytes.data(), want, offset);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw app_error(name_ + ": read failed: " + std::strerror(errno));
    if (got == 0) return;
    if (!block(std::string_view(bytes.data(), static_cast<std::size_t>(got)), offset)) return;
    offset += got;
  }
}

std::int64_t input_stream::line_start_at_or_after(std::int64_t offset) const {
  if (offset <= 0) return 0;
  const std::int64_t size = file_size_.value_or(0);
  std::int64_t start = size;
  // A line starts at `offset` when the byte before it ends a line: the search begins there.
  scan_from(offset - 1, size, [&](std::string_view block, std::int64_t at) {
    const std::size_t newline = block.find('\n');
    if (newline == std::string_view::npos) return true;
    start = at + static_cast<std::int64_t>(newline) + 1;
    return false;
  });
  return start;
}

std::int64_t input_stream::newlines_before(std::int64_t offset) const {
  std::int64_t count = 0;
  scan_from(0, offset, [&](std::string_view block, std::int64_t) {
    count += std::count(block.begin(), block.end(), '\n');
    return true;
  });
  return count;
}

std::string_view input_stream::peek(std::size_t bytes) {
  while (end_ - begin_ < bytes && fill()) {
  }
  return {buffer_.data() + begin_, std::min(bytes, end_ - begin_)};
}

std::size_t input_stream::read(void* out, std::size_t bytes) {
  auto* destination = static_cast<char*>(out);
  std::size_t done = 0;
  while (done < bytes) {
    if (begin_ == end_) {
      // Large reads bypass the buffer: one copy instead of two.
      if (bytes - done >= buffer_.size() && !at_end_) {
        const std::size_t want = bytes - done;
        const std::size_t got = file_size_ && want >= parallel_read_bytes ? read_parallel(destination + done, want)
                                                                          : read_some(destination + done,
                                                                                      std::min(want, direct_read_bytes));
        if (got == 0) {
          at_end_ = true;
          break;
        }
        done += got;
        continue;
      }
      if (!fill()) break;
    }
    const std::size_t take = std::min(bytes - done, end_ - begin_);
    std::memcpy(destination + done, buffer_.data() + begin_, take);
    begin_ += take;
    done += take;
  }
  position_ += static_cast<std::int64_t>(done);
  return done;
}

bool input_stream::read_line(std::string& line) {
  std::size_t scanned = 0;  // unread bytes already searched for '\n' (fill() keeps them in front)
  for (;;) {
    const std::size_t available = end_ - begin_;
    const char* start = buffer_.data() + begin_;
    const void* newline = std::memchr(start + scanned, '\n', available - scanned);
    std::size_t length = 0;
    std::size_t consumed = 0;
    if (newline != nullptr) {
      length = static_cast<std::size_t>(static_cast<const char*>(newline) - start);
      consumed = length + 1;
    } else {
      scanned = available;
      if (fill()) continue;
      if (end_ == begin_) return false;
      // The input ended without a '\n': its last line still counts.
      start = buffer_.data() + begin_;
      length = consumed = end_ - begin_;
    }
    if (length > 0 && start[length - 1] == '\r') --length;
    line.assign(start, length);
    begin_ += consumed;
    position_ += static_cast<std::int64_t>(consumed);
    return true;
  }
}

}  // namespace bkt::apps::detail
