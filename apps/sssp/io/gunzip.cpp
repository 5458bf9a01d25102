// gunzip_windows: zlib's inflate into a window of text that is handed to the parser each time it
// fills, so that the decompressed text is never held whole and a bad line stops the inflating.
#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <string>

#include "bkt_apps/app_error.hpp"
#include "bkt_apps/memory_limit.hpp"
#include "io/content_hash.hpp"
#include "io/input_file.hpp"

namespace bkt::sssp::detail {
namespace {

/// Ends the inflate stream however the decompression leaves.
class inflate_stream {
 public:
  explicit inflate_stream(const std::string& name) {
    // 16 + MAX_WBITS: gzip members only (a zlib or raw deflate stream is "corrupt gzip").
    if (inflateInit2(&stream_, 16 + MAX_WBITS) != Z_OK) throw apps::app_error(name + ": cannot start gzip decompression");
  }
  inflate_stream(const inflate_stream&) = delete;
  inflate_stream& operator=(const inflate_stream&) = delete;
  ~inflate_stream() { inflateEnd(&stream_); }
  z_stream* get() noexcept { return &stream_; }

 private:
  z_stream stream_{};
};

/// The compressed side: pieces of hash_piece_bytes from the reader, fed to zlib.
class compressed_input {
 public:
  compressed_input(const std::function<std::size_t(char*, std::size_t)>& read, z_stream* stream)
      : read_(read), stream_(stream), piece_(std::make_unique_for_overwrite<char[]>(hash_piece_bytes)) {}

  /// Gives zlib more input when it has none; false at the end of the file.
  bool refill() {
    if (stream_->avail_in > 0) return true;
    if (ended_) return false;
    const std::size_t got = read_(piece_.get(), static_cast<std::size_t>(hash_piece_bytes));
    // A short piece is the last one: reading on would start the next hash piece mid-way.
    ended_ = got < static_cast<std::size_t>(hash_piece_bytes);
    stream_->next_in = reinterpret_cast<Bytef*>(piece_.get());
    stream_->avail_in = static_cast<uInt>(got);
    return got > 0;
  }

 private:
  const std::function<std::size_t(char*, std::size_t)>& read_;
  z_stream* stream_;
  std::unique_ptr<char[]> piece_;
  bool ended_ = false;
};

}  // namespace

std::int64_t gunzip_windows(const std::function<std::size_t(char* into, std::size_t capacity)>& read_compressed,
                            const std::string& name, const read_settings& settings,
                            const std::function<void(const text_window&)>& consume) {
  inflate_stream inflater(name);
  z_stream* stream = inflater.get();
  compressed_input input(read_compressed, stream);
  text_buffer window(static_cast<std::size_t>(std::max<std::int64_t>(settings.window_bytes, 1)));
  std::size_t used = 0;            // decompressed bytes in the window
  std::int64_t first_line = 1;     // of the window's first byte
  std::int64_t total = 0;          // bytes handed over in earlier windows
  bool member_done = false;        // the last inflate ended a gzip member
  constexpr std::size_t max_step = std::numeric_limits<uInt>::max();  // zlib counts in 32 bits

  for (;;) {
    // Fill the window, or reach the end of the data.
    bool at_end = false;
    while (used < window.size()) {
      if (!input.refill()) {
        if (!member_done) throw apps::app_error(name + ": truncated gzip data (the file ends inside the compressed stream)");
        at_end = true;
        break;
      }
      if (member_done) {  // more data after a member: the next member (`cat a.gz b.gz` concatenates the texts)
        if (inflateReset(stream) != Z_OK) throw apps::app_error(name + ": corrupt gzip data");
        member_done = false;
      }
      stream->next_out = reinterpret_cast<Bytef*>(window.data() + used);
      stream->avail_out = static_cast<uInt>(std::min(window.size() - used, max_step));
      const uInt offered_out = stream->avail_out;
      const int status = inflate(stream, Z_NO_FLUSH);
      used += offered_out - stream->avail_out;
      if (status == Z_STREAM_END) member_done = true;
      else if (status != Z_OK && status != Z_BUF_ERROR)
        throw apps::app_error(name + ": corrupt gzip data: " + (stream->msg != nullptr ? stream->msg : zError(status)));
    }
    if (at_end) {
      window.set_size(used);
      consume(text_window{window, first_line, true});
      return total + static_cast<std::int64_t>(used);
    }
    // The window is full: hand over its whole lines, keep the partial last one for the next.
    const void* last_newline = ::memrchr(window.data(), '\n', used);
    if (last_newline == nullptr) {  // a line longer than the window: double it
      const std::size_t bigger = 2 * window.capacity();
      apps::require_host_memory(settings.memory_budget, static_cast<std::int64_t>(bigger),
                                name + ":" + std::to_string(first_line),
                                "a line of over " + std::to_string(window.capacity()) + " bytes");
      window.resize(used, bigger);
      continue;
    }
    const std::size_t cut = static_cast<const char*>(last_newline) - window.data() + 1;
    const std::string carry(window.data() + cut, used - cut);
    window.set_size(cut);  // the sentinel lands on the carry's first byte, saved above
    consume(text_window{window, first_line, false});
    first_line += std::count(window.data(), window.data() + cut, '\n');
    total += static_cast<std::int64_t>(cut);
    window.set_size(window.capacity());
    std::memcpy(window.data(), carry.data(), carry.size());
    used = carry.size();
  }
}

}  // namespace bkt::sssp::detail
