// A PNG's pixels, decoded by cairo's own reader, for the tests of the tools' plots.
#pragma once

#include <cairo.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace bkt_apps_test {

class decoded_png {
 public:
  /// The surface's status is an error when cairo cannot read `png`.
  explicit decoded_png(const std::string& png) {
    source_ = {&png, 0};
    surface_ = cairo_image_surface_create_from_png_stream(&read, &source_);
    cairo_surface_flush(surface_);
  }
  decoded_png(const decoded_png&) = delete;
  decoded_png& operator=(const decoded_png&) = delete;
  ~decoded_png() { cairo_surface_destroy(surface_); }

  cairo_status_t status() const { return cairo_surface_status(surface_); }
  int width() const { return cairo_image_surface_get_width(surface_); }
  int height() const { return cairo_image_surface_get_height(surface_); }
  cairo_surface_t* surface() const { return surface_; }

  /// Red, green and blue (0-255) of pixel (x, y) of an RGB24 or ARGB32 surface.
  std::array<int, 3> pixel(int x, int y) const {
    const unsigned char* row = cairo_image_surface_get_data(surface_) + y * cairo_image_surface_get_stride(surface_);
    std::uint32_t value = 0;
    std::memcpy(&value, row + 4 * x, 4);
    return {static_cast<int>(value >> 16 & 255), static_cast<int>(value >> 8 & 255), static_cast<int>(value & 255)};
  }

 private:
  struct byte_source {
    const std::string* bytes;
    std::size_t offset;
  };
  static cairo_status_t read(void* closure, unsigned char* data, unsigned int length) {
    auto* source = static_cast<byte_source*>(closure);
    if (source->offset + length > source->bytes->size()) return CAIRO_STATUS_READ_ERROR;
    std::memcpy(data, source->bytes->data() + source->offset, length);
    source->offset += length;
    return CAIRO_STATUS_SUCCESS;
  }

  byte_source source_{};
  cairo_surface_t* surface_ = nullptr;
};

}  // namespace bkt_apps_test
