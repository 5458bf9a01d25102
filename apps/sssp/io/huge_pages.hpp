// Large loader buffers ask for transparent huge pages: first touching gigabytes of fresh memory
// otherwise costs one page fault per 4 KiB.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bkt::sssp::detail {

/// Advises the kernel to back the whole 2 MiB pages inside [data, data + bytes) with huge pages
/// (THP in "madvise" mode honours it; otherwise it is a no-op). Call it before the first touch.
inline void prefer_huge_pages(const void* data, std::size_t bytes) {
  constexpr std::uintptr_t huge_page = std::uintptr_t{2} << 20;
  if (bytes < 2 * huge_page) return;
  const auto first = (reinterpret_cast<std::uintptr_t>(data) + huge_page - 1) & ~(huge_page - 1);
  const auto last = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(huge_page - 1);
  if (last > first) ::madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);  // advice only: errors do not matter
}

/// v.resize(size) with huge pages preferred for the new storage (v must be empty).
template <class T>
void resize_with_huge_pages(std::vector<T>& v, std::size_t size) {
  v.reserve(size);
  prefer_huge_pages(v.data(), size * sizeof(T));
  v.resize(size);
}

}  // namespace bkt::sssp::detail
