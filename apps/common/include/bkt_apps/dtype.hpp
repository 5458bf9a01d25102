// The element types the tools read and write, by name, size and C++ type.
#pragma once

#include <cuda_fp16.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>

namespace bkt::apps {

enum class dtype { u8, u16, u32, u64, i8, i16, i32, i64, f16, f32, f64 };

/// The dtype named `name`: u8..u64, i8..i64, f16, f32, f64, or a NumPy-style alias (uint32, int8,
/// float16, half, float32, float64, float, double, ...); nullopt when the name is unknown.
/// Case-insensitive. f16 is IEEE half precision, CUDA's __half.
std::optional<dtype> parse_dtype(std::string_view name);

/// The short name ("u32", "f64", ...).
std::string_view dtype_name(dtype type);

/// Bytes per element.
std::size_t dtype_size(dtype type);

bool dtype_is_float(dtype type);
bool dtype_is_signed(dtype type);  // true for i* and f*

/// "u8, u16, ..., f16, f32, f64": for help texts and error messages.
std::string_view dtype_list();

/// The dtype of a C++ arithmetic type (or __half).
template <class T>
constexpr dtype dtype_of() {
  if constexpr (std::is_same_v<T, std::uint8_t>)
    return dtype::u8;
  else if constexpr (std::is_same_v<T, std::uint16_t>)
    return dtype::u16;
  else if constexpr (std::is_same_v<T, std::uint32_t>)
    return dtype::u32;
  else if constexpr (std::is_same_v<T, std::uint64_t>)
    return dtype::u64;
  else if constexpr (std::is_same_v<T, std::int8_t>)
    return dtype::i8;
  else if constexpr (std::is_same_v<T, std::int16_t>)
    return dtype::i16;
  else if constexpr (std::is_same_v<T, std::int32_t>)
    return dtype::i32;
  else if constexpr (std::is_same_v<T, std::int64_t>)
    return dtype::i64;
  else if constexpr (std::is_same_v<T, __half>)
    return dtype::f16;
  else if constexpr (std::is_same_v<T, float>)
    return dtype::f32;
  else if constexpr (std::is_same_v<T, double>)
    return dtype::f64;
  else
    static_assert(sizeof(T) == 0, "not one of the eleven element types");
}

/// Calls f(std::type_identity<T>{}) with the C++ type T of `type`, and returns what it returns.
/// Use it to turn a dtype known at run time into a template instantiation.
template <class F>
decltype(auto) visit_dtype(dtype type, F&& f) {
  switch (type) {
    case dtype::u8:
      return f(std::type_identity<std::uint8_t>{});
    case dtype::u16:
      return f(std::type_identity<std::uint16_t>{});
    case dtype::u32:
      return f(std::type_identity<std::uint32_t>{});
    case dtype::u64:
      return f(std::type_identity<std::uint64_t>{});
    case dtype::i8:
      return f(std::type_identity<std::int8_t>{});
    case dtype::i16:
      return f(std::type_identity<std::int16_t>{});
    case dtype::i32:
      return f(std::type_identity<std::int32_t>{});
    case dtype::i64:
      return f(std::type_identity<std::int64_t>{});
    case dtype::f16:
      return f(std::type_identity<__half>{});
    case dtype::f32:
      return f(std::type_identity<float>{});
    case dtype::f64:
      break;
  }
  return f(std::type_identity<double>{});
}

}  // namespace bkt::apps
