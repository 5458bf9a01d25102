#include "bkt/detail/multisplit/tile_shape.hpp"
#include "bkt/error.hpp"
#include "bkt/multisplit.hpp"

namespace bkt {

std::size_t multisplit_workspace_bytes(std::int64_t num_items, int num_buckets, std::size_t key_bytes,
                                       std::size_t value_bytes) {
  BKT_EXPECTS(num_items >= 0, "multisplit_workspace_bytes: negative size");
  BKT_EXPECTS(num_buckets >= 1 && num_buckets <= multisplit_max_buckets,
              "multisplit_workspace_bytes: num_buckets outside [1, 65536]");
  return detail::multisplit::workspace_bytes(num_items, num_buckets, key_bytes, value_bytes);
}

}  // namespace bkt
