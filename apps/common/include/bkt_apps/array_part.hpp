// One array file written by several ranks at once (mpirun): rank 0 makes the file (a temporary of
// its output_set, so that nothing shows until every rank has succeeded), every rank writes its own
// run of elements at that run's byte offset, and rank 0 alone writes what comes before the data
// (the npy header). Raw and npy offsets follow from element counts; a text run's length is known
// only once it is formatted, so text_bytes() measures it first and the ranks add up the lengths.
// The bytes are exactly those array_writer writes for the whole array in one process.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bkt_apps/numeric_io.hpp"

namespace bkt::apps {

/// The bytes before the first element: the npy header for `total` elements; nothing for raw and
/// text.
std::string array_prefix(file_format format, dtype type, std::int64_t total);

/// Bytes per element of raw and npy data; 0 for text, whose elements vary.
std::int64_t fixed_element_bytes(file_format format, dtype type);

/// The bytes the text form of `count` elements takes (each number and its '\n').
std::int64_t text_bytes(const void* data, std::int64_t count, dtype type);

/// Writes one rank's elements into the shared file from a byte offset on.
class array_part_writer {
 public:
  /// Opens `temporary` (made already, by rank 0) for writing; `name` is the output's name for
  /// messages. Throws app_error "NAME: write failed: REASON".
  array_part_writer(const std::string& temporary, std::string name, file_format format, byte_order order, dtype type,
                    std::int64_t first_byte);
  array_part_writer(const array_part_writer&) = delete;
  array_part_writer& operator=(const array_part_writer&) = delete;
  ~array_part_writer();

  /// Writes `bytes` as they are (rank 0's npy header).
  void write_bytes(const void* data, std::int64_t bytes);
  /// Appends `count` elements of the type, in the machine's byte order.
  void write(const void* data, std::int64_t count);
  /// Closes the file; a write error shows here at the latest.
  void finish();

 private:
  void flush_text();

  std::string name_;
  file_format format_;
  dtype type_;
  bool swap_;
  int fd_ = -1;
  std::int64_t offset_;
  std::string text_;
  std::vector<std::byte> swapped_;
};

}  // namespace bkt::apps
