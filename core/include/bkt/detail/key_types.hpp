// The element types the plain C++ headers promise (the library instantiates each list once; the
// tools expand the same lists).
#pragma once

#include <cstdint>

/// The histograms' data types: every key type but the 64-bit integers.
#define BKT_FOR_EACH_HISTOGRAM_TYPE(X) \
  X(std::int8_t)                       \
  X(std::uint8_t)                      \
  X(std::int16_t)                      \
  X(std::uint16_t)                     \
  X(std::int32_t)                      \
  X(std::uint32_t)                     \
  X(float)                             \
  X(double)

/// Compaction and multisplit keys.
#define BKT_FOR_EACH_KEY_TYPE(X) \
  BKT_FOR_EACH_HISTOGRAM_TYPE(X) \
  X(std::int64_t)                \
  X(std::uint64_t)

/// Radix sort's keys: the compaction and multisplit keys and the 16-bit floats (__half and
/// __nv_bfloat16, from <cuda_fp16.h> and <cuda_bf16.h>).
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
