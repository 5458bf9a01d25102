// A minimal PNG encoder: 8-bit RGB, no interlacing, every row with filter 0, one IDAT chunk
// compressed by zlib (RFC 2083 / the W3C PNG specification).
#pragma once

#include <string>

#include "rgb_canvas.hpp"

namespace bkt::clean {

/// The bytes of a PNG file holding `canvas`.
std::string encode_png(const rgb_canvas& canvas);

}  // namespace bkt::clean
