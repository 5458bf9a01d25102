// The ten key types, for explicit instantiations.
#pragma once

#include <cstdint>

#define BKT_RADIXSORT_FOR_EACH_KEY(X)                                                                               \
  X(std::uint8_t)                                                                                                   \
  X(std::uint16_t) X(std::uint32_t) X(std::uint64_t) X(std::int8_t) X(std::int16_t) X(std::int32_t) X(std::int64_t) \
      X(float) X(double)
