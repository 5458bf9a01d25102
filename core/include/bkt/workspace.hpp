// Reusable device scratch memory, so that repeated calls allocate nothing.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "bkt/device_buffer.hpp"

namespace bkt {

/// Scratch memory for bkt calls. A default-constructed workspace owns its memory and grows on
/// demand (never shrinks); one built from a caller's pointer is fixed, and a call that needs more
/// throws bkt::error. A workspace serves one stream at a time: calls on different streams need
/// different workspaces (or the caller orders the streams).
class workspace {
 public:
  workspace() = default;
  /// Wraps `bytes` of the caller's device memory (256-byte aligned); never grows or frees it.
  workspace(void* data, std::size_t bytes);

  /// At least `bytes` of device memory, 256-byte aligned, valid until the next reserve().
  /// Growing frees the old block in order on `stream`.
  void* reserve(std::size_t bytes, cudaStream_t stream);

  std::size_t capacity() const noexcept { return fixed_ ? external_bytes_ : owned_.size_bytes(); }
  bool fixed() const noexcept { return fixed_; }

 private:
  device_buffer<std::byte> owned_;
  bool fixed_ = false;
  void* external_ = nullptr;
  std::size_t external_bytes_ = 0;
};

}  // namespace bkt
