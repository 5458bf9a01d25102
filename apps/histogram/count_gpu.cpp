// The GPU path: each chunk is copied to the device and binned by the library's device API into
// per-chunk totals, which the next call (or finish) copies back and adds on the host. The copy back
// waits for the kernel, so deferring it to the next call lets the caller read the next chunk from
// disk while the GPU bins this one.
#include <cuda_runtime_api.h>

#include <cstdint>

#include "bin_counter.hpp"
#include "bkt/device_buffer.hpp"
#include "bkt/error.hpp"
#include "bkt/histogram.hpp"
#include "bkt/memory.hpp"
#include "bkt/stream.hpp"
#include "bkt/workspace.hpp"

namespace bkt::apps::histogram {
namespace {


template <class T>
class gpu_counter final : public bin_counter<T> {
 public:
  gpu_counter(const bin_spec<T>& spec, bool weighted, std::int64_t chunk_items)
      : spec_(spec),
        weighted_(weighted),
        data_(chunk_items, stream_),
        weights_(weighted ? chunk_items : 0, stream_),
        edges_(spec.even ? 0 : static_cast<std::int64_t>(spec.edges.size()), stream_),
        chunk_counts_(weighted ? 0 : spec.bins, stream_),
        chunk_sums_(weighted ? spec.bins : 0, stream_),
        chunk_outside_count_(1, stream_),
        chunk_outside_weight_(1, stream_) {
    const auto bins = static_cast<std::size_t>(spec.bins);
    if (weighted) {
      this->sums.assign(bins, 0.0);
      staged_sums_.assign(bins, 0.0);
    } else {
      this->counts.assign(bins, 0);
      staged_counts_.assign(bins, 0);
    }
    if (!spec.even)
      BKT_CUDA_CHECK(cudaMemcpyAsync(edges_.data(), spec.edges.data(), edges_.size_bytes(), cudaMemcpyHostToDevice,
                                     stream_));
  }

  void add(std::span<const T> data, std::span<const double> weights) override {
    BKT_EXPECTS(static_cast<std::int64_t>(data.size()) <= data_.size(), "bkt-histogram: chunk larger than its buffer");
    collect();
    if (data.empty()) return;
    // Pageable host memory: each copy returns once the host data is staged, so the caller may
    // refill its buffer as soon as add() returns.
    BKT_CUDA_CHECK(cudaMemcpyAsync(data_.data(), data.data(), data.size_bytes(), cudaMemcpyHostToDevice, stream_));
    const std::span<const T> device_data(data_.data(), data.size());
    if (weighted_) {
      BKT_CUDA_CHECK(cudaMemcpyAsync(weights_.data(), weights.data(), weights.size_bytes(), cudaMemcpyHostToDevice,
                                     stream_));
      const std::span<const double> device_weights(weights_.data(), weights.size());
      if (spec_.even)
        bkt::histogram_even<T, double>(device_data, device_weights, chunk_sums_.span(), spec_.lo, spec_.hi,
                                       spec_.precision, chunk_outside_weight_.data(), workspace_, stream_);
      else
        bkt::histogram_range<T, double>(device_data, device_weights, std::as_const(edges_).span(), chunk_sums_.span(),
                                        chunk_outside_weight_.data(), workspace_, stream_);
    } else if (spec_.even) {
      bkt::histogram_even<T>(device_data, chunk_counts_.span(), spec_.lo, spec_.hi, spec_.precision,
                             chunk_outside_count_.data(), workspace_, stream_);
    } else {
      bkt::histogram_range<T>(device_data, std::as_const(edges_).span(), chunk_counts_.span(),
                              chunk_outside_count_.data(), workspace_, stream_);
    }
    pending_ = true;
  }

  void finish() override { collect(); }

 private:
  /// Copies the last chunk's totals back (waiting for its kernel) and adds them.
  void collect() {
    if (!pending_) return;
    pending_ = false;
    if (weighted_) {
      BKT_CUDA_CHECK(cudaMemcpyAsync(staged_sums_.data(), chunk_sums_.data(), chunk_sums_.size_bytes(),
                                     cudaMemcpyDeviceToHost, stream_));
      this->outside_weight += bkt::read_sync(chunk_outside_weight_.data(), stream_);
      for (std::size_t bin = 0; bin < staged_sums_.size(); ++bin) this->sums[bin] += staged_sums_[bin];
    } else {
      BKT_CUDA_CHECK(cudaMemcpyAsync(staged_counts_.data(), chunk_counts_.data(), chunk_counts_.size_bytes(),
                                     cudaMemcpyDeviceToHost, stream_));
      this->outside_count += bkt::read_sync(chunk_outside_count_.data(), stream_);
      for (std::size_t bin = 0; bin < staged_counts_.size(); ++bin) this->counts[bin] += staged_counts_[bin];
    }
  }

  owned_stream stream_;  // first: destroyed last
  bkt::workspace workspace_;
  bin_spec<T> spec_;
  bool weighted_;
  bkt::device_buffer<T> data_;
  bkt::device_buffer<double> weights_;
  bkt::device_buffer<T> edges_;
  bkt::device_buffer<std::int64_t> chunk_counts_;
  bkt::device_buffer<double> chunk_sums_;
  bkt::device_buffer<std::int64_t> chunk_outside_count_;
  bkt::device_buffer<double> chunk_outside_weight_;
  std::vector<std::int64_t> staged_counts_;
  std::vector<double> staged_sums_;
  bool pending_ = false;
};

}  // namespace

template <class T>
std::unique_ptr<bin_counter<T>> make_gpu_counter(const bin_spec<T>& spec, bool weighted, std::int64_t chunk_items) {
  return std::make_unique<gpu_counter<T>>(spec, weighted, chunk_items);
}

#define BKT_HISTOGRAM_INSTANTIATE(T)                                                                    \
  template std::unique_ptr<bin_counter<T>> make_gpu_counter<T>(const bin_spec<T>&, bool, std::int64_t);
BKT_FOR_EACH_HISTOGRAM_TYPE(BKT_HISTOGRAM_INSTANTIATE)
#undef BKT_HISTOGRAM_INSTANTIATE

}  // namespace bkt::apps::histogram
