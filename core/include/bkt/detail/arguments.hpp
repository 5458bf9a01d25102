// Argument checks shared by the public entry points: one clear message per misuse.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "bkt/error.hpp"

namespace bkt::detail {

[[noreturn]] inline void throw_argument(const std::string& message) {
  throw error(message, cudaSuccess, __FILE__, __LINE__);
}

/// A span that must point somewhere when it is not empty.
template <class T>
void expect_data(const char* call, const char* name, std::span<T> s) {
  if (s.data() == nullptr && !s.empty())
    throw_argument(std::string(call) + ": " + name + " is a null pointer with size " + std::to_string(s.size()));
}

/// An output that must hold at least `needed` elements.
template <class T>
void expect_capacity(const char* call, const char* name, std::span<T> s, std::size_t needed) {
  expect_data(call, name, s);
  if (s.size() < needed)
    throw_argument(std::string(call) + ": " + name + " holds " + std::to_string(s.size()) +
                   " elements, fewer than the " + std::to_string(needed) + " input elements");
}

inline void expect_count_pointer(const char* call, const void* count) {
  if (count == nullptr) throw_argument(std::string(call) + ": the count pointer is null");
}

/// Two inputs that must be of one length (keys and values, keys and flags).
inline void expect_same_size(const char* call, const char* a, std::size_t a_size, const char* b, std::size_t b_size) {
  if (a_size != b_size)
    throw_argument(std::string(call) + ": " + a + " has " + std::to_string(a_size) + " elements but " + b +
                   " has " + std::to_string(b_size));
}

/// An output that must not share memory with an input.
template <class A, class B>
void expect_disjoint(const char* call, const char* a, std::span<A> a_span, const char* b, std::span<B> b_span) {
  const auto* a_begin = reinterpret_cast<const unsigned char*>(a_span.data());
  const auto* b_begin = reinterpret_cast<const unsigned char*>(b_span.data());
  if (a_span.empty() || b_span.empty()) return;
  if (a_begin < b_begin + b_span.size_bytes() && b_begin < a_begin + a_span.size_bytes())
    throw_argument(std::string(call) + ": " + a + " and " + b + " overlap");
}

}  // namespace bkt::detail
