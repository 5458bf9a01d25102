#include "bkt/workspace.hpp"

#include <cstdint>
#include <string>

namespace bkt {

workspace::workspace(void* data, std::size_t bytes)
    : fixed_(true), external_(data), external_bytes_(bytes) {
  BKT_EXPECTS(data != nullptr || bytes == 0, "workspace: null pointer with non-zero size");
  BKT_EXPECTS(reinterpret_cast<std::uintptr_t>(data) % 256 == 0,
              "workspace: memory must be 256-byte aligned");
}

void* workspace::reserve(std::size_t bytes, cudaStream_t stream) {
  if (fixed_) {
    if (bytes > external_bytes_) {
      const std::string what = "workspace too small: the call needs " + std::to_string(bytes) +
                               " bytes, the caller gave " + std::to_string(external_bytes_);
      throw error(what, cudaSuccess, __FILE__, __LINE__);
    }
    return external_;
  }
  if (bytes > owned_.size_bytes()) {
    owned_.release();
    owned_ = device_buffer<std::byte>(static_cast<std::int64_t>(bytes), stream);
  }
  return owned_.data();
}

}  // namespace bkt
