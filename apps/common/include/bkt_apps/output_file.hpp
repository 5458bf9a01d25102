// An output that appears whole or not at all: bytes go to NAME.tmp.XXXXXX beside NAME (mkstemp)
// and commit() renames it into place; destroyed uncommitted, it removes the temporary. "-" (or an
// empty path) is standard output, and an existing device or FIFO (/dev/null, a named pipe) is
// written directly: renaming over those would replace them. A symbolic link to a file keeps the
// link and replaces the file it points to.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bkt::apps {

class output_file {
 public:
  /// Creates the temporary; throws app_error "PATH: cannot create: REASON".
  explicit output_file(const std::string& path);
  output_file(output_file&& other) noexcept;
  output_file& operator=(output_file&& other) noexcept;
  output_file(const output_file&) = delete;
  output_file& operator=(const output_file&) = delete;
  ~output_file();

  /// The path as given, or "<stdout>".
  const std::string& name() const noexcept { return name_; }
  bool is_standard_output() const noexcept { return standard_output_; }
  /// True when earlier bytes can be rewritten (a temporary file, not a stream or device).
  bool seekable() const noexcept { return !temporary_.empty(); }
  /// Bytes written so far.
  std::int64_t offset() const noexcept { return offset_; }

  /// Appends bytes (buffered); throws app_error "PATH: write failed: REASON".
  void write(const void* data, std::size_t bytes);
  void write(std::string_view text) { write(text.data(), text.size()); }
  /// Overwrites bytes already written at `offset`; only when seekable().
  void overwrite(std::int64_t offset, const void* data, std::size_t bytes);
  /// Flushes, closes and renames the temporary into place (files get the usual 0666 & ~umask).
  void commit();

 private:
  void flush();
  void discard() noexcept;

  std::string path_;       // the final name
  std::string name_;       // for messages
  std::string temporary_;  // empty for standard output and once committed or removed
  int fd_ = -1;
  bool standard_output_ = false;
  bool committed_ = false;
  std::int64_t offset_ = 0;
  std::vector<char> buffer_;
};

/// Writes `text` to `path` ("-": standard output) through an output_file.
void write_text_file(const std::string& path, std::string_view text);

}  // namespace bkt::apps
