// multisplit (pairs) with delta_buckets, for every key type of bkt/multisplit.hpp.
#include "instantiate.hpp"

namespace bkt {
#define BKT_EXPAND(K) BKT_MULTISPLIT_PAIRS(K, delta_buckets)
BKT_FOR_EACH_KEY_TYPE(BKT_EXPAND)
#undef BKT_EXPAND
}  // namespace bkt
