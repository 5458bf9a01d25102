// Small input files written by the tests themselves, in each format the tool reads.
#pragma once

#include <cuda_fp16.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <span>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "tool_fixture.hpp"

namespace histogram_test {

/// Bare elements; big_endian swaps the bytes of each.
template <class T>
void write_raw(const std::filesystem::path& path, std::span<const T> values, bool big_endian = false) {
  std::string bytes(values.size() * sizeof(T), '\0');
  std::memcpy(bytes.data(), values.data(), bytes.size());
  if (big_endian != (std::endian::native == std::endian::big))
    for (std::size_t at = 0; at < bytes.size(); at += sizeof(T))
      std::reverse(bytes.begin() + static_cast<std::ptrdiff_t>(at), bytes.begin() + static_cast<std::ptrdiff_t>(at + sizeof(T)));
  write_file(path, bytes);
}

template <class T>
constexpr const char* npy_descr() {
  if constexpr (std::is_same_v<T, __half>) return "<f2";
  else if constexpr (std::is_same_v<T, float>) return "<f4";
  else if constexpr (std::is_same_v<T, double>) return "<f8";
  else if constexpr (std::is_same_v<T, std::int8_t>) return "|i1";
  else if constexpr (std::is_same_v<T, std::uint8_t>) return "|u1";
  else if constexpr (std::is_same_v<T, std::int16_t>) return "<i2";
  else if constexpr (std::is_same_v<T, std::uint16_t>) return "<u2";
  else if constexpr (std::is_same_v<T, std::int32_t>) return "<i4";
  else if constexpr (std::is_same_v<T, std::uint32_t>) return "<u4";
  else if constexpr (std::is_same_v<T, std::int64_t>) return "<i8";
  else return "<u8";
}

/// A .npy v1.0 file as numpy.save writes it (little-endian machine): 1-D, or 2-D with `columns`
/// columns in C order.
template <class T>
std::string npy_bytes(std::span<const T> values, std::size_t columns = 0) {
  // A stream rather than "literal" + std::string, which trips a false -Wrestrict in GCC 12.
  std::ostringstream dict;
  dict << "{'descr': '" << npy_descr<T>() << "', 'fortran_order': False, 'shape': (";
  if (columns == 0)
    dict << values.size() << ",), }";
  else
    dict << values.size() / columns << ", " << columns << "), }";
  std::string header = dict.str();
  const std::size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::string bytes = "\x93NUMPY";
  bytes += '\x01';
  bytes += '\x00';
  bytes += static_cast<char>(header.size() & 0xff);
  bytes += static_cast<char>(header.size() >> 8);
  bytes += header;
  const std::size_t at = bytes.size();
  bytes.resize(at + values.size() * sizeof(T));
  std::memcpy(bytes.data() + at, values.data(), values.size() * sizeof(T));
  return bytes;
}

template <class T>
void write_npy(const std::filesystem::path& path, std::span<const T> values, std::size_t columns = 0) {
  write_file(path, npy_bytes(values, columns));
}

/// A value as text that reads back exactly.
template <class T>
std::string number_text(T value) {
  std::ostringstream out;
  out.precision(std::is_same_v<T, float> ? 9 : 17);
  if constexpr (sizeof(T) == 1)
    out << static_cast<int>(value);
  else
    out << value;
  return out.str();
}

/// One value per line.
template <class T>
std::string text_lines(std::span<const T> values) {
  std::string text;
  for (const T& value : values) text += number_text(value) + "\n";
  return text;
}

}  // namespace histogram_test
