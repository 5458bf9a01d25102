// The bytes of test inputs: values in either byte order, and .npy files.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace bkt::apps::test {

/// The bytes of values in the machine's order.
template <class T>
std::string bytes_of(const std::vector<T>& values) {
  return {reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T)};
}

/// The same bytes with each element reversed (the other byte order).
template <class T>
std::string swapped_bytes_of(const std::vector<T>& values) {
  std::string bytes = bytes_of(values);
  for (std::size_t i = 0; i < bytes.size(); i += sizeof(T))
    std::reverse(bytes.begin() + i, bytes.begin() + i + sizeof(T));
  return bytes;
}

/// A .npy file's bytes: magic, version, length field, `dict` padded to 64 with '\n', then `data`.
inline std::string npy_bytes(const std::string& dict, const std::string& data, int major = 1) {
  const std::size_t length_bytes = major == 1 ? 2 : 4;
  std::string header = dict;
  const std::size_t prefix = 8 + length_bytes;
  while ((prefix + header.size() + 1) % 64 != 0) header.push_back(' ');
  header.push_back('\n');
  std::string out("\x93NUMPY", 6);
  out.push_back(static_cast<char>(major));
  out.push_back('\0');
  for (std::size_t i = 0; i < length_bytes; ++i) out.push_back(static_cast<char>((header.size() >> (8 * i)) & 0xff));
  return out + header + data;
}

}  // namespace bkt::apps::test
