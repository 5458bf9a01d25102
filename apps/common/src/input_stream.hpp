// A buffered reader over a file descriptor (a file or standard input) that reports failures as
// app_error "NAME: problem", lets the caller peek at the first bytes, and reads lines.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bkt::apps::detail {

class input_stream {
 public:
  /// Opens `path` ("-" or "": standard input); throws app_error "PATH: cannot open: REASON".
  explicit input_stream(const std::string& path);
  input_stream(const input_stream&) = delete;
  input_stream& operator=(const input_stream&) = delete;
  ~input_stream();

  /// The path as given, or "<stdin>".
  const std::string& name() const noexcept { return name_; }
  /// The size of a regular file in bytes; nullopt for pipes, terminals and standard input.
  std::optional<std::int64_t> file_size() const noexcept { return file_size_; }

  /// Up to `bytes` of the input ahead, without consuming them (fewer only at the end).
  std::string_view peek(std::size_t bytes);
  /// Reads until `bytes` are read or the input ends; returns how many were read.
  std::size_t read(void* out, std::size_t bytes);
  /// The next line without its '\n' (and without a '\r' before it); false at the end.
  bool read_line(std::string& line);
  /// Bytes consumed so far (the offset in the file once seek_range() has run).
  std::int64_t position() const noexcept { return position_; }

  /// Regular files only: reading restarts at byte `begin` and ends at byte `end` (a part of the
  /// file for one rank; numeric_io.hpp's input_part).
  void seek_range(std::int64_t begin, std::int64_t end);
  /// Regular files only, without moving the reading position: the offset of the first line that
  /// starts at or after `offset` (0 for 0, the file's size when no line starts there).
  std::int64_t line_start_at_or_after(std::int64_t offset) const;
  /// Regular files only, without moving the reading position: the '\n' bytes before `offset`.
  std::int64_t newlines_before(std::int64_t offset) const;

 private:
  /// Reads more into the buffer; false at the end of the input.
  bool fill();
  /// A large read of a regular file, straight into `out`, by several threads at once (pread):
  /// up to `bytes`, fewer at the end of the file or range; moves the descriptor past them.
  std::size_t read_parallel(char* out, std::size_t bytes);
  /// One read(2) of at most `bytes` (fewer at the range's end): what it returned, 0 at the end.
  std::size_t read_some(char* out, std::size_t bytes);
  /// Scans the file from `offset` with pread, calling `block` on each block until it returns false.
  template <class Visit>
  void scan_from(std::int64_t offset, std::int64_t end, Visit&& block) const;

  std::string name_;
  int fd_ = -1;
  bool owns_fd_ = false;
  bool at_end_ = false;
  std::optional<std::int64_t> file_size_;
  std::vector<char> buffer_;
  std::size_t begin_ = 0;  // unread bytes are buffer_[begin_, end_)
  std::size_t end_ = 0;
  std::int64_t position_ = 0;
  std::int64_t fetched_ = 0;               // the descriptor's offset: bytes read(2) has returned
  std::optional<std::int64_t> range_end_;  // seek_range's end
};

}  // namespace bkt::apps::detail
