// Reading a graph file: a plain file whole, in one piece read on several threads; a gzip file as a
// stream, inflated a window at a time, so that a bad line is found before the rest is inflated and
// the whole text is never held at once. Either way the bytes as stored are hashed as they arrive.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <string>

#include "io/text_buffer.hpp"

namespace bkt::sssp::detail {

/// What the cache checks first to know a file is unchanged (the content hash settles it).
struct input_stamp {
  std::int64_t bytes = 0;     // size as stored
  std::int64_t mtime_ns = 0;  // modification time, nanoseconds since the epoch
  bool regular = true;        // a regular file (not a pipe or device): only those are cached
};

/// The size and modification time of `path`; app_error "PATH: cannot open: REASON" when it is
/// missing, and "PATH: is a directory".
input_stamp stamp_input(const std::string& path);

/// A run of whole lines of an input's text, as read_input_windows hands it over.
struct text_window {
  const text_buffer& text;  // the lines; the last ends in '\n' unless the input ends there
  std::int64_t first_line;  // the 1-based line number, in the whole input, of text's first byte
  bool last;                // no text follows
};

/// How read_input_windows reads.
struct read_settings {
  int threads = 1;
  std::int64_t memory_budget = std::numeric_limits<std::int64_t>::max();  // bytes; see memory_limit.hpp
  std::int64_t window_bytes = std::int64_t{64} << 20;  // decompressed text per gzip window
};

/// What reading gave besides the text.
struct input_summary {
  std::uint64_t content_hash = 0;  // hash_memory of the bytes as stored (compressed for gzip)
  std::int64_t stored_bytes = 0;   // bytes read from the file
  std::int64_t text_bytes = 0;     // text handed over (the decompressed size for gzip)
  bool gzip = false;
};

/// Reads `path`, handing its text to `consume`: a plain file as one window (the whole file),
/// gzip data (a name ending in ".gz", or the gzip magic bytes) in windows of about
/// settings.window_bytes of whole lines (longer where one line is longer). Throws app_error
/// naming the file for a missing file, corrupt or truncated gzip data, and a file or a line that
/// does not fit settings.memory_budget; what `consume` throws passes through.
input_summary read_input_windows(const std::string& path, const read_settings& settings,
                                 const std::function<void(const text_window&)>& consume);

/// The whole text of `path` in one buffer (read_input_windows concatenated): for small files.
text_buffer read_input(const std::string& path, int threads = 1);

/// Inflates the gzip data (one or more concatenated members) that `read_compressed` yields (it
/// fills up to `capacity` bytes and returns how many, 0 at the end), handing `consume` windows as
/// read_input_windows does. `name` is for messages. Returns the decompressed size.
std::int64_t gunzip_windows(const std::function<std::size_t(char* into, std::size_t capacity)>& read_compressed,
                            const std::string& name, const read_settings& settings,
                            const std::function<void(const text_window&)>& consume);

}  // namespace bkt::sssp::detail
