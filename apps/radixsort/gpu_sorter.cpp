// The GPU sort step through the device API, so that upload, sort and download are timed apart
// (CUDA events) and every chunk reuses the same buffers and workspace.
#include <cuda_runtime_api.h>

#include <cstdio>

#include "bkt/device_buffer.hpp"
#include "bkt/error.hpp"
#include "bkt/stream.hpp"
#include "bkt/workspace.hpp"
#include "chunk_sorter.hpp"
#include "bkt/types.hpp"

namespace bkt::radixsort {
namespace {

class owned_event {
 public:
  owned_event() { BKT_CUDA_CHECK(cudaEventCreate(&event_)); }
  owned_event(const owned_event&) = delete;
  owned_event& operator=(const owned_event&) = delete;
  ~owned_event() { cudaEventDestroy(event_); }
  void record(cudaStream_t stream) { BKT_CUDA_CHECK(cudaEventRecord(event_, stream)); }
  /// Seconds from `earlier` to this event; both must have completed.
  double seconds_since(const owned_event& earlier) const {
    float milliseconds = 0;
    BKT_CUDA_CHECK(cudaEventElapsedTime(&milliseconds, earlier.event_, event_));
    return milliseconds * 1e-3;
  }
  void synchronize() { BKT_CUDA_CHECK(cudaEventSynchronize(event_)); }

 private:
  cudaEvent_t event_ = nullptr;
};

template <class Key>
class gpu_sorter final : public chunk_sorter<Key> {
 public:
  gpu_sorter(const radix_sort_options& options, std::int64_t capacity, bool with_indices)
      : options_(options),
        keys_in_(capacity, stream_.get()),
        keys_out_(capacity, stream_.get()),
        indices_(with_indices ? capacity : 0, stream_.get()) {
    // Index mode reads keys_in_ and writes keys_out_; keys alone sort within the two buffers.
    const std::size_t bytes =
        with_indices ? radix_sort_workspace_bytes(capacity, sizeof(Key), sizeof(std::int64_t), options,
                                                  radix_sort_form::separate_output)
                     : radix_sort_workspace_bytes(capacity, sizeof(Key), 0, options, radix_sort_form::double_buffer);
    workspace_.reserve(bytes, stream_.get());
  }

  void sort(std::span<const Key> keys_in, std::span<Key> keys_out, std::span<std::int64_t> indices_out,
            sort_times& times) override {
    const std::size_t count = keys_in.size();
    BKT_EXPECTS(static_cast<std::int64_t>(count) <= keys_in_.size(), "chunk larger than the sorter's capacity");
    const cudaStream_t stream = stream_.get();
    start_.record(stream);
    if (count > 0)
      BKT_CUDA_CHECK(
          cudaMemcpyAsync(keys_in_.data(), keys_in.data(), keys_in.size_bytes(), cudaMemcpyHostToDevice, stream));
    uploaded_.record(stream);
    const Key* sorted = nullptr;
    if (!indices_out.empty()) {
      radix_sort_indices<Key, std::int64_t>(
          std::span<const Key>(keys_in_.data(), count), std::span<Key>(keys_out_.data(), count),
          std::span<std::int64_t>(indices_.data(), count), workspace_, stream, options_);
      sorted = keys_out_.data();
    } else {
      double_buffer<Key> buffers{{std::span<Key>(keys_in_.data(), count), std::span<Key>(keys_out_.data(), count)}, 0};
      radix_sort_keys<Key>(buffers, workspace_, stream, options_);
      sorted = buffers.data().data();
    }
    sorted_.record(stream);
    if (count > 0) {
      BKT_CUDA_CHECK(cudaMemcpyAsync(keys_out.data(), sorted, keys_in.size_bytes(), cudaMemcpyDeviceToHost, stream));
      if (!indices_out.empty())
        BKT_CUDA_CHECK(cudaMemcpyAsync(indices_out.data(), indices_.data(), count * sizeof(std::int64_t),
                                       cudaMemcpyDeviceToHost, stream));
    }
    downloaded_.record(stream);
    downloaded_.synchronize();
    times.upload += uploaded_.seconds_since(start_);
    times.sort += sorted_.seconds_since(uploaded_);
    times.download += downloaded_.seconds_since(sorted_);
  }

 private:
  radix_sort_options options_;
  owned_stream stream_;  // declared before the buffers, which free themselves on it
  device_buffer<Key> keys_in_;
  device_buffer<Key> keys_out_;
  device_buffer<std::int64_t> indices_;
  workspace workspace_;
  owned_event start_, uploaded_, sorted_, downloaded_;
};

}  // namespace

template <class Key>
std::unique_ptr<chunk_sorter<Key>> make_gpu_sorter(const radix_sort_options& options, std::int64_t capacity,
                                                   bool with_indices) {
  return std::make_unique<gpu_sorter<Key>>(options, capacity, with_indices);
}

#define BKT_RADIXSORT_INSTANTIATE(Key) \
  template std::unique_ptr<chunk_sorter<Key>> make_gpu_sorter<Key>(const radix_sort_options&, std::int64_t, bool);
BKT_FOR_EACH_KEY_TYPE(BKT_RADIXSORT_INSTANTIATE)
BKT_RADIXSORT_INSTANTIATE(__half)  // the tools' f16

}  // namespace bkt::radixsort
