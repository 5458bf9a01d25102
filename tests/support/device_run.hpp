// Runs a device-API call on host data: copies in, poisons the outputs, runs, copies back.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <span>
#include <vector>

#include "bkt/device_buffer.hpp"
#include "bkt/memory.hpp"
#include "bkt/stream.hpp"
#include "checks.hpp"

namespace bkt::test {

/// A device output of `n` elements filled with the poison pattern.
template <class T>
device_buffer<T> poisoned_buffer(std::int64_t n, cudaStream_t stream) {
  device_buffer<T> buffer(n, stream);
  if (n > 0) BKT_CUDA_CHECK(cudaMemsetAsync(buffer.data(), poison_byte, buffer.size_bytes(), stream));
  return buffer;
}

template <class T>
std::vector<T> to_host(const device_buffer<T>& buffer) {
  return to_host_sync(buffer.span(), buffer.stream());
}

/// A stream for one test, destroyed with it.
using test_stream = bkt::owned_stream;

}  // namespace bkt::test
