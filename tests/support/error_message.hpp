// Argument-check tests: the message of the bkt::error a call throws (which must not carry a CUDA
// error, since arguments are checked before any CUDA call).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "bkt/error.hpp"

namespace bkt::test {

/// The message of the bkt::error `call` throws, or "(no error)".
template <class F>
std::string error_of(F&& call) {
  try {
    call();
  } catch (const bkt::error& e) {
    EXPECT_EQ(e.code(), cudaSuccess) << e.what();
    return e.what();
  }
  return "(no error)";
}

}  // namespace bkt::test

/// `call` throws a bkt::error whose message contains `text`.
#define EXPECT_ERROR_MENTIONS(call, text)                                       \
  do {                                                                          \
    const std::string message = ::bkt::test::error_of([&] { call; });           \
    EXPECT_NE(message.find(text), std::string::npos) << message;                \
  } while (0)
