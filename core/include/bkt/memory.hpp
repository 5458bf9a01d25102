// Copies between host and device for callers of the device API.
#pragma once

#include <cuda_runtime_api.h>

#include <span>
#include <vector>

#include "bkt/device_buffer.hpp"
#include "bkt/error.hpp"

namespace bkt {

/// Reads one value from device memory; waits for `stream`.
template <class T>
T read_sync(const T* d_value, cudaStream_t stream) {
  T value{};
  BKT_CUDA_CHECK(cudaMemcpyAsync(&value, d_value, sizeof(T), cudaMemcpyDeviceToHost, stream));
  BKT_CUDA_CHECK(cudaStreamSynchronize(stream));
  return value;
}

/// A device copy of host data, ordered on `stream` (the host data must outlive the copy).
template <class T>
device_buffer<T> to_device(std::span<const T> host, cudaStream_t stream) {
  device_buffer<T> buffer(static_cast<std::int64_t>(host.size()), stream);
  if (!host.empty())
    BKT_CUDA_CHECK(cudaMemcpyAsync(buffer.data(), host.data(), host.size_bytes(), cudaMemcpyHostToDevice, stream));
  return buffer;
}

/// A host copy of device data; waits for `stream`.
template <class T>
std::vector<T> to_host_sync(std::span<const T> device, cudaStream_t stream) {
  std::vector<T> host(device.size());
  if (!device.empty())
    BKT_CUDA_CHECK(cudaMemcpyAsync(host.data(), device.data(), device.size_bytes(), cudaMemcpyDeviceToHost, stream));
  BKT_CUDA_CHECK(cudaStreamSynchronize(stream));
  return host;
}

}  // namespace bkt
