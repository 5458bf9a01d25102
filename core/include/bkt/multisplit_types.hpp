// Multisplit's limits (bkt/multisplit.hpp has the calls; bkt/buckets.hpp the bucket functors).
// Plain C++, no CUDA headers.
#pragma once

namespace bkt {

/// Largest bucket count done in a single scatter pass.
inline constexpr int multisplit_single_pass_buckets = 256;
/// Largest bucket count multisplit accepts.
inline constexpr int multisplit_max_buckets = 65536;

}  // namespace bkt
