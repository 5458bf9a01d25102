// A move-only, stream-ordered device allocation.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>
#include <utility>

#include "bkt/error.hpp"

namespace bkt {

/// `count` elements of T in device memory, allocated and freed in order on `stream`
/// (cudaMallocAsync / cudaFreeAsync). Contents are uninitialised. Out of memory throws bkt::error.
template <class T>
class device_buffer {
 public:
  device_buffer() = default;
  device_buffer(std::int64_t count, cudaStream_t stream) : count_(count), stream_(stream) {
    BKT_EXPECTS(count >= 0, "device_buffer: negative size");
    if (count > 0)
      BKT_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&data_),
                                     static_cast<std::size_t>(count) * sizeof(T), stream));
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  device_buffer(device_buffer&& other) noexcept { swap(other); }
  device_buffer& operator=(device_buffer&& other) noexcept {
    device_buffer(std::move(other)).swap(*this);
    return *this;
  }
  ~device_buffer() { release(); }

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  std::int64_t size() const noexcept { return count_; }
  std::size_t size_bytes() const noexcept { return static_cast<std::size_t>(count_) * sizeof(T); }
  bool empty() const noexcept { return count_ == 0; }
  cudaStream_t stream() const noexcept { return stream_; }
  std::span<T> span() noexcept { return {data_, static_cast<std::size_t>(count_)}; }
  std::span<const T> span() const noexcept { return {data_, static_cast<std::size_t>(count_)}; }

  /// Frees now (stream-ordered); the buffer becomes empty.
  void release() noexcept {
    if (data_ != nullptr) {
      // Destructors must not throw: report and carry on.
      if (const cudaError_t code = cudaFreeAsync(data_, stream_); code != cudaSuccess)
        std::fprintf(stderr, "bkt: cudaFreeAsync failed: %s\n", cudaGetErrorString(code));
    }
    data_ = nullptr;
    count_ = 0;
  }

  void swap(device_buffer& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(count_, other.count_);
    std::swap(stream_, other.stream_);
  }

 private:
  T* data_ = nullptr;
  std::int64_t count_ = 0;
  cudaStream_t stream_ = nullptr;
};

}  // namespace bkt
