// The element types each primitive is built for, as X-macro lists: each list calls X(type) once
// per type, in the order shown. The library instantiates its templates over these lists; a program
// that wraps a primitive in templates of its own (a tool choosing the type at run time) expands
// the same list to instantiate them, so that it covers exactly the types the library ships:
//
//   #define MY_INSTANTIATE(T) template void sort_file<T>(const std::string&);
//   BKT_FOR_EACH_KEY_TYPE(MY_INSTANTIATE)
#pragma once

#include <cstdint>

/// The histograms' data types (bkt/histogram.hpp): every key type but the 64-bit integers.
#define BKT_FOR_EACH_HISTOGRAM_TYPE(X) \
  X(std::int8_t)                       \
  X(std::uint8_t)                      \
  X(std::int16_t)                      \
  X(std::uint16_t)                     \
  X(std::int32_t)                      \
  X(std::uint32_t)                     \
  X(float)                             \
  X(double)

/// Compaction and multisplit keys (bkt/compact.hpp, bkt/multisplit.hpp).
#define BKT_FOR_EACH_KEY_TYPE(X) \
  BKT_FOR_EACH_HISTOGRAM_TYPE(X) \
  X(std::int64_t)                \
  X(std::uint64_t)

/// Radix sort's keys (bkt/radix_sort.hpp): the compaction and multisplit keys and the 16-bit floats
/// (__half and __nv_bfloat16: include <cuda_fp16.h> and <cuda_bf16.h> before expanding it).
#define BKT_FOR_EACH_RADIX_KEY_TYPE(X) \
  BKT_FOR_EACH_KEY_TYPE(X)             \
  X(__half)                            \
  X(__nv_bfloat16)

/// Selection's element types (bkt/select.hpp).
#define BKT_FOR_EACH_SELECT_TYPE(X) \
  X(std::int32_t)                   \
  X(std::uint32_t)                  \
  X(std::int64_t)                   \
  X(std::uint64_t)                  \
  X(float)                          \
  X(double)
