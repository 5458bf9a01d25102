// Reversing the bytes of each element, for data whose byte order is not the machine's.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>

namespace bkt::apps::detail {

/// Reverses the bytes of each of `count` elements of `element_bytes` bytes at `data`.
inline void swap_bytes(void* data, std::int64_t count, std::size_t element_bytes) {
  if (element_bytes <= 1) return;
  auto* bytes = static_cast<std::byte*>(data);
  for (std::int64_t i = 0; i < count; ++i, bytes += element_bytes) std::reverse(bytes, bytes + element_bytes);
}

/// True when data in `big_endian` order must be swapped on this machine.
constexpr bool needs_swap(bool big_endian) { return big_endian != (std::endian::native == std::endian::big); }

}  // namespace bkt::apps::detail
