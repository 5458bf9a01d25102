// The NumPy .npy header (format versions 1.0, 2.0 and 3.0): reading it, and writing it for a 1-D
// array. https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "bkt_apps/dtype.hpp"
#include "input_stream.hpp"

namespace bkt::apps::detail {

inline constexpr std::string_view npy_magic{"\x93NUMPY", 6};

struct npy_header {
  dtype type = dtype::f64;
  bool big_endian = false;  // the data's byte order
  bool fortran_order = false;
  std::vector<std::int64_t> shape;
  std::int64_t header_bytes = 0;  // magic, version, length and dict: where the data starts
  std::int64_t num_items() const;
};

/// Reads and checks the header at the start of `stream`, leaving it at the first data byte.
/// Throws app_error "NAME: ..." for a bad magic, version, dict, dtype or shape.
npy_header read_npy_header(input_stream& stream);

/// A version 1.0 header for a C-order 1-D array of `count` elements in the machine's byte order,
/// padded with spaces so that the data starts at a multiple of 64 bytes and at least at
/// `min_bytes` (so that a header written first with a placeholder count can be rewritten in place).
std::string format_npy_header(dtype type, std::int64_t count, std::size_t min_bytes = 0);

}  // namespace bkt::apps::detail
