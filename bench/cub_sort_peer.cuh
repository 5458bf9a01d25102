// CUB's radix sort as a benchmark peer, called every way a CUB user can call it: the pointer form
// and the DoubleBuffer form, each with an int and an int64_t count (cub_count_calls). Included by
// the benchmarks whose peer is a sort (radix sort, multisplit, selection).
#pragma once

#include <cub/device/device_radix_sort.cuh>

#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "bkt/device_buffer.hpp"
#include "bkt/error.hpp"
#include "cub_peer.cuh"

namespace bkt::bench {

/// CUB's stable sort of n keys (and values, unless Value is void) on bits [0, end_bit), ascending or
/// descending, into keys_out (values_out), as a CUB user calls it: the pointer form, and the
/// DoubleBuffer form in keys_out and a spare buffer, after a copy of the input into keys_out (timed:
/// that form overwrites its input); a result that it leaves in the spare is copied into keys_out
/// afterwards, untimed, for the check. What the pointers point to must outlive the calls.
template <class Key, class Value = void>
class cub_sort {
  using value_type = std::conditional_t<std::is_void_v<Value>, char, Value>;

 public:
  /// Timed work before each sort (a transform that computes the keys, say), told whether the
  /// call's count is 64-bit, so that it can pass the same count type.
  using prologue = std::function<void(cudaStream_t, bool wide_count)>;

  cub_sort(const Key* keys, Key* keys_out, const value_type* values, value_type* values_out, std::int64_t n,
           int end_bit, bool descending, cudaStream_t stream, prologue before = {})
      : keys_(keys), keys_out_(keys_out), values_(values), values_out_(values_out), n_(n), end_bit_(end_bit),
        descending_(descending), before_(std::move(before)), keys_spare_(n, stream),
        values_spare_(std::is_void_v<Value> ? 0 : n, stream), keys_buffers_(keys_out, keys_spare_.data()),
        values_buffers_(values_out, values_spare_.data()) {}

  /// Both forms, each with both counts: "NAME(i32)", "NAME(i64)", "NAME DB(i32)", "NAME DB(i64)".
  std::vector<peer_call> calls(cub_storage& storage, const std::string& name, cudaStream_t stream) {
    return pointer_calls(storage, name, stream) + double_buffer_calls(storage, name, stream);
  }

  std::vector<peer_call> pointer_calls(cub_storage& storage, const std::string& name, cudaStream_t stream) {
    return cub_count_calls(
        storage, name, n_,
        [this](void* t, std::size_t& b, cudaStream_t s, auto count) -> cudaError_t {
          using cub::DeviceRadixSort;
          if (t != nullptr && before_) before_(s, sizeof(count) == 8);  // not for the size query
          if constexpr (std::is_void_v<Value>)
            return descending_ ? DeviceRadixSort::SortKeysDescending(t, b, keys_, keys_out_, count, 0, end_bit_, s)
                               : DeviceRadixSort::SortKeys(t, b, keys_, keys_out_, count, 0, end_bit_, s);
          else
            return descending_ ? DeviceRadixSort::SortPairsDescending(t, b, keys_, keys_out_, values_, values_out_, count,
                                                                      0, end_bit_, s)
                               : DeviceRadixSort::SortPairs(t, b, keys_, keys_out_, values_, values_out_, count, 0,
                                                            end_bit_, s);
        },
        stream);
  }

  std::vector<peer_call> double_buffer_calls(cub_storage& storage, const std::string& name, cudaStream_t stream) {
    return cub_count_calls(
        storage, name + " DB", n_,
        [this](void* t, std::size_t& b, cudaStream_t s, auto count) -> cudaError_t {
          using cub::DeviceRadixSort;
          keys_buffers_ = cub::DoubleBuffer<Key>(keys_out_, keys_spare_.data());
          values_buffers_ = cub::DoubleBuffer<value_type>(values_out_, values_spare_.data());
          if (t != nullptr) {  // not for the size query
            if (before_) before_(s, sizeof(count) == 8);
            copy_in(s);
          }
          if constexpr (std::is_void_v<Value>)
            return descending_ ? DeviceRadixSort::SortKeysDescending(t, b, keys_buffers_, count, 0, end_bit_, s)
                               : DeviceRadixSort::SortKeys(t, b, keys_buffers_, count, 0, end_bit_, s);
          else
            return descending_ ? DeviceRadixSort::SortPairsDescending(t, b, keys_buffers_, values_buffers_, count, 0,
                                                                      end_bit_, s)
                               : DeviceRadixSort::SortPairs(t, b, keys_buffers_, values_buffers_, count, 0, end_bit_, s);
        },
        stream, [this](cudaStream_t s) { publish(s); });
  }

 private:
  void copy_in(cudaStream_t s) const {
    BKT_CUDA_CHECK(cudaMemcpyAsync(keys_out_, keys_, sizeof(Key) * n_, cudaMemcpyDeviceToDevice, s));
    if constexpr (!std::is_void_v<Value>)
      BKT_CUDA_CHECK(cudaMemcpyAsync(values_out_, values_, sizeof(Value) * n_, cudaMemcpyDeviceToDevice, s));
  }
  void publish(cudaStream_t s) {  // not const: DoubleBuffer::Current is not
    if (keys_buffers_.Current() != keys_out_)
      BKT_CUDA_CHECK(cudaMemcpyAsync(keys_out_, keys_buffers_.Current(), sizeof(Key) * n_, cudaMemcpyDeviceToDevice, s));
    if constexpr (!std::is_void_v<Value>)
      if (values_buffers_.Current() != values_out_)
        BKT_CUDA_CHECK(cudaMemcpyAsync(values_out_, values_buffers_.Current(), sizeof(Value) * n_,
                                       cudaMemcpyDeviceToDevice, s));
  }

  const Key* keys_;
  Key* keys_out_;
  const value_type* values_;
  value_type* values_out_;
  std::int64_t n_;
  int end_bit_;
  bool descending_;
  prologue before_;
  device_buffer<Key> keys_spare_;
  device_buffer<value_type> values_spare_;
  cub::DoubleBuffer<Key> keys_buffers_;
  cub::DoubleBuffer<value_type> values_buffers_;
};

}  // namespace bkt::bench
