// One temporary file for sorted runs that do not fit in memory. It has no name (O_TMPFILE, or
// unlinked as soon as it is created), so it disappears with the process however the run ends.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace bkt::radixsort {

class spill_file {
 public:
  /// Creates the file in `directory`; throws app_error naming the directory.
  explicit spill_file(const std::string& directory);
  spill_file(const spill_file&) = delete;
  spill_file& operator=(const spill_file&) = delete;
  ~spill_file();

  /// Appends bytes; returns the offset they start at.
  std::int64_t append(const void* data, std::size_t bytes);
  /// Reserves `bytes` at the end for a later write_at (which another thread may make); returns
  /// their offset.
  std::int64_t claim(std::size_t bytes) noexcept {
    const std::int64_t start = size_;
    size_ += static_cast<std::int64_t>(bytes);
    return start;
  }
  /// Writes bytes at an offset claimed earlier.
  void write_at(std::int64_t offset, const void* data, std::size_t bytes) const;
  /// Reads bytes written earlier.
  void read_at(std::int64_t offset, void* data, std::size_t bytes) const;
  std::int64_t size() const noexcept { return size_; }

 private:
  std::string directory_;
  int fd_ = -1;
  std::int64_t size_ = 0;
};

/// Where spilled runs go: `chosen` when set, else the output file's directory (when it is a
/// regular file or does not exist yet), else $TMPDIR or /tmp.
std::string spill_directory(const std::string& chosen, const std::string& output_path);

}  // namespace bkt::radixsort
