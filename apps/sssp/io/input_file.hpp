// Reading a graph file into memory: plain or gzip-compressed, in one piece.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "io/text_buffer.hpp"

namespace bkt::sssp::detail {

/// What the cache checks to know a file is unchanged.
struct input_stamp {
  std::int64_t bytes = 0;        // size as stored
  std::int64_t mtime_ns = 0;     // modification time, nanoseconds since the epoch
};

/// The size and modification time of `path`; app_error "PATH: cannot open: REASON" when it is
/// missing, and "PATH: is a directory".
input_stamp stamp_input(const std::string& path);

/// The whole file. It is decompressed when its name ends in ".gz" or it starts with the gzip
/// magic bytes; corrupt or truncated gzip data is an app_error naming the file. A regular file is
/// read on `threads` threads.
text_buffer read_input(const std::string& path, int threads = 1);

/// The gzip data `compressed` (one or more concatenated members) decompressed; `name` is for
/// messages.
text_buffer gunzip(std::string_view compressed, const std::string& name);

}  // namespace bkt::sssp::detail
