// Carves one workspace block into 256-byte-aligned slices.
#pragma once

#include <cstddef>

namespace bkt::detail {

inline constexpr std::size_t workspace_alignment = 256;

/// Records slice offsets on a first pass (sizing), then hands out pointers into a real block.
class workspace_layout {
 public:
  /// Reserves `bytes` and returns the slice's offset from the block's start.
  constexpr std::size_t add(std::size_t bytes) {
    const std::size_t offset = total_;
    total_ += (bytes + workspace_alignment - 1) / workspace_alignment * workspace_alignment;
    return offset;
  }
  constexpr std::size_t total_bytes() const { return total_; }

 private:
  std::size_t total_ = 0;
};

template <class T>
T* slice_at(void* base, std::size_t offset) {
  return reinterpret_cast<T*>(static_cast<std::byte*>(base) + offset);
}

}  // namespace bkt::detail
