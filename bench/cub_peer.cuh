// What every benchmark needs to run a CUB peer fairly: temporary storage sized before timing, and
// the narrowest offset type CUB accepts.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>

#include "bkt/device_buffer.hpp"
#include "bkt/error.hpp"

namespace bkt::bench {

/// CUB picks 64-bit offsets for a 64-bit count, which costs it time; a CUB user passes an int when
/// n fits, so the peer does too.
template <class Call>
cudaError_t with_cub_count(std::int64_t n, const Call& call) {
  if (n <= std::numeric_limits<int>::max()) return call(static_cast<int>(n));
  return call(n);
}

/// CUB temporary storage, sized before any timing so that the timed work is the CUB call alone.
/// One object serves every row of a benchmark; it grows and never shrinks.
class cub_storage {
 public:
  /// Sizes the storage for `call(temp, bytes, stream)` now; returns the work to time. What `call`
  /// refers to must outlive the returned function.
  template <class Call>
  std::function<void(cudaStream_t)> prepare(Call call, cudaStream_t stream) {
    std::size_t needed = 0;
    BKT_CUDA_CHECK(call(nullptr, needed, stream));
    if (needed > bytes_) {
      memory_ = device_buffer<std::byte>(static_cast<std::int64_t>(needed), stream);
      bytes_ = needed;
    }
    return [this, call](cudaStream_t s) {
      std::size_t available = bytes_;
      BKT_CUDA_CHECK(call(memory_.data(), available, s));
    };
  }

 private:
  device_buffer<std::byte> memory_;
  std::size_t bytes_ = 0;
};

}  // namespace bkt::bench
