#include "bkt/compact.hpp"
#include "bkt/detail/compact/tile_shape.hpp"
#include "bkt/error.hpp"

namespace bkt {

std::size_t compact_workspace_bytes(std::int64_t num_items, std::size_t key_bytes, std::size_t value_bytes) {
  BKT_EXPECTS(num_items >= 0, "compact_workspace_bytes: negative size");
  const std::size_t widest = key_bytes > value_bytes ? key_bytes : value_bytes;
  BKT_EXPECTS(key_bytes > 0 && widest <= 16 && 16 % widest == 0,
              "compact_workspace_bytes: keys and values of 1, 2, 4, 8 or 16 bytes");
  return detail::compact::workspace_bytes(num_items, key_bytes, value_bytes);
}

}  // namespace bkt
