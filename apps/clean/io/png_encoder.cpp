#include "png_encoder.hpp"

#include <zlib.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace bkt::clean {
namespace {

void append_u32(std::string& out, std::uint32_t value) {  // PNG integers are big-endian
  out += static_cast<char>(value >> 24);
  out += static_cast<char>(value >> 16);
  out += static_cast<char>(value >> 8);
  out += static_cast<char>(value);
}

/// Length, type, data, and the CRC-32 of type and data.
void append_chunk(std::string& out, const char type[4], const std::string& data) {
  append_u32(out, static_cast<std::uint32_t>(data.size()));
  const std::string typed = std::string(type, 4) + data;
  out += typed;
  append_u32(out, static_cast<std::uint32_t>(
                      crc32(0L, reinterpret_cast<const Bytef*>(typed.data()), static_cast<uInt>(typed.size()))));
}

}  // namespace

std::string encode_png(const rgb_canvas& canvas) {
  std::string header;
  append_u32(header, static_cast<std::uint32_t>(canvas.width));
  append_u32(header, static_cast<std::uint32_t>(canvas.height));
  header += static_cast<char>(8);  // bits per channel
  header += static_cast<char>(2);  // colour type: RGB
  header += std::string(3, '\0');  // deflate compression, adaptive filtering, no interlace

  // Each row starts with its filter type, 0 (None): simple, and zlib still finds the repeats.
  const std::size_t row_bytes = static_cast<std::size_t>(canvas.width) * 3;
  std::vector<std::uint8_t> raw;
  raw.reserve((row_bytes + 1) * canvas.height);
  for (int row = 0; row < canvas.height; ++row) {
    raw.push_back(0);
    const auto* start = canvas.pixels.data() + row * row_bytes;
    raw.insert(raw.end(), start, start + row_bytes);
  }
  uLongf compressed_bytes = compressBound(static_cast<uLong>(raw.size()));
  std::string compressed(compressed_bytes, '\0');
  if (compress2(reinterpret_cast<Bytef*>(compressed.data()), &compressed_bytes, raw.data(),
                static_cast<uLong>(raw.size()), Z_BEST_COMPRESSION) != Z_OK)
    throw std::runtime_error("zlib could not compress the plot");
  compressed.resize(compressed_bytes);

  std::string png("\x89PNG\r\n\x1a\n", 8);
  append_chunk(png, "IHDR", header);
  append_chunk(png, "IDAT", compressed);
  append_chunk(png, "IEND", {});
  return png;
}

}  // namespace bkt::clean
