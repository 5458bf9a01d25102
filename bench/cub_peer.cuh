// What every benchmark needs to run a CUB peer fairly: temporary storage sized before timing, and
// the peer called every way a CUB user can call it, so that the row reports its fastest call.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "bkt/device_buffer.hpp"
#include "bkt/error.hpp"
#include "harness.hpp"

namespace bkt::bench {

/// CUB temporary storage, sized before any timing so that the timed work is the CUB call alone.
/// One object serves every row of a benchmark (and every call of a row's peer); it grows and never
/// shrinks.
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

/// A CUB call in both of the forms its item count allows: `call(temp, bytes, stream, count)` with an
/// int count (when n fits) and with an int64_t count, named NAME(i32) and NAME(i64). CUB picks its
/// offset type from the count's type, and the two can differ in speed: on an H200, SortKeys of 2^28
/// u32 took 5.45 ms with int64_t and 6.37 ms with int. `publish` goes with both calls
/// (peer_call::publish). What `call` refers to must outlive the calls.
template <class Call>
std::vector<peer_call> cub_count_calls(cub_storage& storage, const std::string& name, std::int64_t n, Call call,
                                       cudaStream_t stream, std::function<void(cudaStream_t)> publish = {}) {
  std::vector<peer_call> calls;
  const auto narrow = [call, n](void* t, std::size_t& b, cudaStream_t s) { return call(t, b, s, static_cast<int>(n)); };
  const auto wide = [call, n](void* t, std::size_t& b, cudaStream_t s) { return call(t, b, s, n); };
  if (n <= std::numeric_limits<int>::max()) calls.push_back({name + "(i32)", storage.prepare(narrow, stream), publish});
  calls.push_back({name + "(i64)", storage.prepare(wide, stream), publish});
  return calls;
}

/// The calls of several peers (a pointer form and a DoubleBuffer form, say), one list to time.
inline std::vector<peer_call> operator+(std::vector<peer_call> a, const std::vector<peer_call>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace bkt::bench
