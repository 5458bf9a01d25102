// Checks shared by the tests: bitwise equality, poisoned outputs, and the GPU gate.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "bkt/gpu.hpp"

namespace bkt::test {

/// The byte every output is filled with before a run: elements left unwritten keep it.
inline constexpr unsigned char poison_byte = 0xA5;

template <class T>
T poison_value() {
  T value;
  std::memset(&value, poison_byte, sizeof(T));
  return value;
}

/// Equal bit for bit (so NaN == NaN and -0.0 != +0.0); reports the first difference.
template <class T>
::testing::AssertionResult bitwise_equal(std::span<const T> want, std::span<const T> got) {
  if (want.size() != got.size())
    return ::testing::AssertionFailure() << "sizes differ: want " << want.size() << ", got " << got.size();
  for (std::size_t i = 0; i < want.size(); ++i)
    if (std::memcmp(&want[i], &got[i], sizeof(T)) != 0)
      return ::testing::AssertionFailure() << "first difference at element " << i << " of " << want.size();
  return ::testing::AssertionSuccess();
}

/// Every element still holds the poison pattern.
template <class T>
::testing::AssertionResult poison_intact(std::span<const T> tail) {
  const T poison = poison_value<T>();
  for (std::size_t i = 0; i < tail.size(); ++i)
    if (std::memcmp(&tail[i], &poison, sizeof(T)) != 0)
      return ::testing::AssertionFailure() << "element " << i << " past the count was written";
  return ::testing::AssertionSuccess();
}

/// On the GPU host BKT_REQUIRE_GPU_TESTS=1 turns a missing GPU into a failure instead of a skip.
inline bool gpu_tests_required() {
  const char* text = std::getenv("BKT_REQUIRE_GPU_TESTS");
  return text != nullptr && std::string(text) == "1";
}

}  // namespace bkt::test

/// Skips the test (with the reason) when no usable GPU is present.
#define BKT_REQUIRE_GPU()                                                                  \
  do {                                                                                     \
    if (!::bkt::gpu_available()) {                                                         \
      if (::bkt::test::gpu_tests_required()) FAIL() << ::bkt::gpu_unavailable_reason();   \
      GTEST_SKIP() << "no usable GPU: " << ::bkt::gpu_unavailable_reason();               \
    }                                                                                      \
  } while (0)
