// dtype names, sizes and aliases.
#include "bkt_apps/dtype.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <utility>

namespace bkt::apps {
namespace {

// NumPy's type codes (i4, f8, ...) are left out on purpose: its "i8" is 64 bits, ours 8.
constexpr std::array<std::pair<std::string_view, dtype>, 36> names = {{
    {"u8", dtype::u8},      {"u16", dtype::u16},      {"u32", dtype::u32},      {"u64", dtype::u64},
    {"i8", dtype::i8},      {"i16", dtype::i16},      {"i32", dtype::i32},      {"i64", dtype::i64},
    {"f32", dtype::f32},    {"f64", dtype::f64},      {"uint8", dtype::u8},     {"uint16", dtype::u16},
    {"uint32", dtype::u32}, {"uint64", dtype::u64},   {"int8", dtype::i8},      {"int16", dtype::i16},
    {"int32", dtype::i32},  {"int64", dtype::i64},    {"float32", dtype::f32},  {"float64", dtype::f64},
    {"float", dtype::f32},  {"double", dtype::f64},   {"ubyte", dtype::u8},     {"byte", dtype::i8},
    {"uint8_t", dtype::u8}, {"uint16_t", dtype::u16}, {"uint32_t", dtype::u32}, {"uint64_t", dtype::u64},
    {"int8_t", dtype::i8},  {"int16_t", dtype::i16},  {"int32_t", dtype::i32},  {"int64_t", dtype::i64},
    {"single", dtype::f32}, {"f16", dtype::f16},      {"float16", dtype::f16},  {"half", dtype::f16},
}};

}  // namespace

std::optional<dtype> parse_dtype(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const auto& [alias, type] : names)
    if (alias == lower) return type;
  return std::nullopt;
}

std::string_view dtype_name(dtype type) {
  switch (type) {
    case dtype::u8:
      return "u8";
    case dtype::u16:
      return "u16";
    case dtype::u32:
      return "u32";
    case dtype::u64:
      return "u64";
    case dtype::i8:
      return "i8";
    case dtype::i16:
      return "i16";
    case dtype::i32:
      return "i32";
    case dtype::i64:
      return "i64";
    case dtype::f16:
      return "f16";
    case dtype::f32:
      return "f32";
    case dtype::f64:
      break;
  }
  return "f64";
}

std::size_t dtype_size(dtype type) {
  return visit_dtype(type, []<class T>(std::type_identity<T>) { return sizeof(T); });
}

bool dtype_is_float(dtype type) { return type == dtype::f16 || type == dtype::f32 || type == dtype::f64; }

bool dtype_is_signed(dtype type) {
  return dtype_is_float(type) ||
         visit_dtype(type, []<class T>(std::type_identity<T>) { return std::is_signed_v<T>; });
}

std::string_view dtype_list() { return "u8, u16, u32, u64, i8, i16, i32, i64, f16, f32, f64"; }

}  // namespace bkt::apps
