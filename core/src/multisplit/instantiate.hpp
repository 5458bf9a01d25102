// Explicit instantiations of the plain C++ multisplit API (bkt/multisplit.hpp): one macro per
// mode, expanded by one source file per (mode, functor) so that the build spreads over cores.
#pragma once

#include "bkt/multisplit.cuh"
#include "bkt/types.hpp"

#define BKT_MULTISPLIT_KEYS(K, Fn)                                                                           \
  template void multisplit<K, Fn<K>>(std::span<const K>, std::span<K>, std::span<std::int64_t>, int, Fn<K>, \
                                     workspace&, cudaStream_t);

#define BKT_MULTISPLIT_PAIRS(K, Fn)                                                                          \
  template void detail::multisplit_pairs<K, std::uint32_t, Fn<K>>(                                          \
      std::span<const K>, std::span<const std::uint32_t>, std::span<K>, std::span<std::uint32_t>,           \
      std::span<std::int64_t>, int, Fn<K>, workspace&, cudaStream_t);                                       \
  template void detail::multisplit_pairs<K, std::uint64_t, Fn<K>>(                                          \
      std::span<const K>, std::span<const std::uint64_t>, std::span<K>, std::span<std::uint64_t>,           \
      std::span<std::int64_t>, int, Fn<K>, workspace&, cudaStream_t);

#define BKT_MULTISPLIT_INDICES(K, Fn)                                                                        \
  template void multisplit_indices<K, std::uint32_t, Fn<K>>(std::span<const K>, std::span<K>,              \
                                                            std::span<std::uint32_t>, std::span<std::int64_t>, \
                                                            int, Fn<K>, workspace&, cudaStream_t);          \
  template void multisplit_indices<K, std::int64_t, Fn<K>>(std::span<const K>, std::span<K>,               \
                                                           std::span<std::int64_t>, std::span<std::int64_t>, \
                                                           int, Fn<K>, workspace&, cudaStream_t);
