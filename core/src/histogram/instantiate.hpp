// The data types of bkt/histogram.hpp.
#pragma once

#include <cstdint>

#include "bkt/histogram.cuh"

#define BKT_FOR_EACH_HISTOGRAM_TYPE(X) \
  X(std::int8_t)                       \
  X(std::uint8_t)                      \
  X(std::int16_t)                      \
  X(std::uint16_t)                     \
  X(std::int32_t)                      \
  X(std::uint32_t)                     \
  X(float)                             \
  X(double)
