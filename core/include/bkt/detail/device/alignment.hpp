// Alignment checks of the dispatch code: a kernel's vector loads need aligned pointers.
#pragma once

#include <cstddef>
#include <cstdint>

namespace bkt::detail {

/// Whether `p` is a multiple of `bytes`.
inline bool aligned_to(const void* p, std::size_t bytes) { return reinterpret_cast<std::uintptr_t>(p) % bytes == 0; }

}  // namespace bkt::detail
