// gunzip: zlib's inflate into one growing buffer, sized first from the gzip trailer.
#include <zlib.h>

#include <cstring>
#include <limits>

#include "bkt_apps/app_error.hpp"
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

/// The first guess at the decompressed size: the last member's ISIZE field (its size modulo
/// 2^32), exact for the usual single member under 4 GiB.
std::size_t size_hint(std::string_view compressed) {
  if (compressed.size() < 18) return 1 << 16;
  std::uint32_t trailer_size = 0;
  for (int i = 0; i < 4; ++i)
    trailer_size |= std::uint32_t{static_cast<unsigned char>(compressed[compressed.size() - 4 + i])} << (8 * i);
  return std::max<std::size_t>(trailer_size, compressed.size());
}

}  // namespace

text_buffer gunzip(std::string_view compressed, const std::string& name) {
  inflate_stream inflater(name);
  z_stream* stream = inflater.get();
  text_buffer out(size_hint(compressed));
  std::size_t used = 0;
  std::size_t consumed = 0;
  constexpr std::size_t max_step = std::numeric_limits<uInt>::max();  // zlib counts in 32 bits
  for (;;) {
    if (used == out.size()) out.resize(used, out.size() + out.size() / 2 + (1 << 16));
    stream->next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data() + consumed));
    stream->avail_in = static_cast<uInt>(std::min(compressed.size() - consumed, max_step));
    stream->next_out = reinterpret_cast<Bytef*>(out.data() + used);
    stream->avail_out = static_cast<uInt>(std::min(out.size() - used, max_step));
    const uInt offered_in = stream->avail_in;
    const uInt offered_out = stream->avail_out;
    const int status = inflate(stream, Z_NO_FLUSH);
    consumed += offered_in - stream->avail_in;
    used += offered_out - stream->avail_out;
    if (status == Z_STREAM_END) {
      if (consumed == compressed.size()) break;
      // Concatenated members (as `cat a.gz b.gz` makes) decompress to the concatenated text.
      if (inflateReset(stream) != Z_OK) throw apps::app_error(name + ": corrupt gzip data");
      continue;
    }
    if (status == Z_BUF_ERROR && consumed == compressed.size())
      throw apps::app_error(name + ": truncated gzip data (the file ends inside the compressed stream)");
    if (status != Z_OK && status != Z_BUF_ERROR)
      throw apps::app_error(name + ": corrupt gzip data: " + (stream->msg != nullptr ? stream->msg : zError(status)));
  }
  out.truncate(used);
  return out;
}

}  // namespace bkt::sssp::detail
