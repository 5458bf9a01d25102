// What the tool must output, computed here independently of it: the stable sort by the key's
// order-preserving bit image (as bkt/radix_sort.hpp defines the order), and the file encodings.
#pragma once

#include <cuda_fp16.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace bkt::radixsort::test {

/// Floating point for the tests: the built-in types and f16 (CUDA's __half).
template <class T>
inline constexpr bool is_float = std::is_floating_point_v<T> || std::is_same_v<T, __half>;

/// Integers by value; floats by the total order -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN.
template <class T>
std::uint64_t order_image(T value) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  const std::uint64_t sign = std::uint64_t{1} << (8 * sizeof(T) - 1);
  const std::uint64_t all = sizeof(T) == 8 ? ~std::uint64_t{0} : (sign << 1) - 1;
  if constexpr (is_float<T>)
    return (bits & sign) ? (~bits & all) : (bits | sign);
  else if constexpr (std::is_signed_v<T>)
    return bits ^ sign;
  else
    return bits;
}

/// The stable sorting permutation.
template <class T>
std::vector<std::int64_t> stable_order(const std::vector<T>& values, bool descending = false) {
  std::vector<std::int64_t> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
    return descending ? order_image(values[a]) > order_image(values[b])
                      : order_image(values[a]) < order_image(values[b]);
  });
  return order;
}

struct sort_flags {
  bool descending = false;
  bool unique = false;
};

/// The kept positions, in output order: all of them, or the first of each run of equal bits.
template <class T>
std::vector<std::int64_t> expected_positions(const std::vector<T>& values, sort_flags flags = {}) {
  const auto order = stable_order(values, flags.descending);
  if (!flags.unique) return order;
  std::vector<std::int64_t> kept;
  for (std::size_t j = 0; j < order.size(); ++j)
    if (j == 0 || std::memcmp(&values[order[j]], &values[order[j - 1]], sizeof(T)) != 0) kept.push_back(order[j]);
  return kept;
}

template <class T>
std::vector<T> gather(const std::vector<T>& values, const std::vector<std::int64_t>& positions) {
  std::vector<T> out;
  for (std::int64_t p : positions) out.push_back(values[p]);
  return out;
}

template <class T>
std::string raw_bytes(const std::vector<T>& values, bool big_endian = false) {
  std::string bytes(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
  if (big_endian)
    for (std::size_t i = 0; i < bytes.size(); i += sizeof(T))
      std::reverse(bytes.begin() + i, bytes.begin() + i + sizeof(T));
  return bytes;
}

/// A .npy file as numpy.save writes it (version 1.0, header padded to 64 bytes).
inline std::string npy_file(const std::string& descr, const std::string& shape, const std::string& data,
                            bool fortran_order = false) {
  std::string dict = "{'descr': '" + descr + "', 'fortran_order': " + (fortran_order ? "True" : "False") +
                     ", 'shape': " + shape + ", }";
  while ((10 + dict.size() + 1) % 64 != 0) dict.push_back(' ');
  dict.push_back('\n');
  std::string out("\x93NUMPY\x01\x00", 8);
  out.push_back(static_cast<char>(dict.size() & 0xff));
  out.push_back(static_cast<char>(dict.size() >> 8));
  return out + dict + data;
}

template <class T>
std::string npy_descr() {
  const char kind = is_float<T> ? 'f' : (std::is_signed_v<T> ? 'i' : 'u');
  return std::string(sizeof(T) == 1 ? "|" : "<") + kind + std::to_string(sizeof(T));
}

template <class T>
std::string npy_1d(const std::vector<T>& values) {
  std::string shape = "(";  // appended, not "(" + string: GCC 12 warns falsely on that (-Wrestrict)
  shape += std::to_string(values.size());
  shape += ",)";
  return npy_file(npy_descr<T>(), shape, raw_bytes(values));
}

/// One number per line, floats in their shortest round-trip form.
template <class T>
std::string text_lines(const std::vector<T>& values) {
  std::string text;
  for (const T& value : values) {
    char digits[64];
    text.append(digits, std::to_chars(digits, digits + sizeof(digits), value).ptr);
    text.push_back('\n');
  }
  return text;
}

/// Values with many repeats (so that stability shows), the extremes, and for floats NaNs with
/// several payloads and both signs, infinities, both zeros and denormals.
template <class T>
std::vector<T> adversarial_values(std::size_t count, unsigned seed) {
  std::mt19937_64 random(seed);
  std::vector<T> values;
  if constexpr (std::is_floating_point_v<T>) {
    using word = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    const word exponent = static_cast<word>(sizeof(T) == 4 ? 0x7f800000ull : 0x7ff0000000000000ull);
    const word sign = word{1} << (8 * sizeof(T) - 1);
    const auto from_bits = [](word bits) {
      T value;
      std::memcpy(&value, &bits, sizeof(T));
      return value;
    };
    const std::vector<T> specials = {from_bits(exponent | 1),
                                     from_bits(exponent | 2),
                                     from_bits(sign | exponent | 1),
                                     from_bits(sign | exponent | 5),
                                     from_bits(exponent),
                                     from_bits(sign | exponent),
                                     T(0.0),
                                     T(-0.0),
                                     from_bits(1),
                                     from_bits(sign | 3),
                                     std::numeric_limits<T>::max(),
                                     std::numeric_limits<T>::lowest()};
    for (std::size_t i = 0; i < count; ++i)
      values.push_back(random() % 4 == 0 ? specials[random() % specials.size()] : T(int(random() % 21) - 10) / 4);
  } else {
    const std::vector<T> specials = {std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), T(0)};
    for (std::size_t i = 0; i < count; ++i)
      values.push_back(random() % 8 == 0 ? specials[random() % specials.size()]
                                         : static_cast<T>(static_cast<std::int64_t>(random() % 40) - 20));
  }
  return values;
}

}  // namespace bkt::radixsort::test
