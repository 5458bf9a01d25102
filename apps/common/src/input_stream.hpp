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
  /// Bytes consumed so far.
  std::int64_t position() const noexcept { return position_; }

 private:
  /// Reads more into the buffer; false at the end of the input.
  bool fill();

  std::string name_;
  int fd_ = -1;
  bool owns_fd_ = false;
  bool at_end_ = false;
  std::optional<std::int64_t> file_size_;
  std::vector<char> buffer_;
  std::size_t begin_ = 0;  // unread bytes are buffer_[begin_, end_)
  std::size_t end_ = 0;
  std::int64_t position_ = 0;
};

}  // namespace bkt::apps::detail
