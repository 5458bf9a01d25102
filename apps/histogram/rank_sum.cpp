// The ranks' bins added on their GPUs through bkt::dist's all-reduce: one array of integers
// (counts, outside counts, elements) and one of doubles (weight sums, outside weights).
#include <cuda_runtime_api.h>

#include <vector>

#include "bkt/device_buffer.hpp"
#include "bkt/dist/communicator.hpp"
#include "bkt/dist/reduce.hpp"
#include "bkt/error.hpp"
#include "bkt/stream.hpp"
#include "rank_sum.hpp"

namespace bkt::apps::histogram {
namespace {

/// `values` summed over the ranks in place, through device memory.
template <class T>
void sum_on_device(const dist::communicator& comm, std::vector<T>& values, cudaStream_t stream) {
  device_buffer<T> device(static_cast<std::int64_t>(values.size()), stream);
  const std::size_t bytes = values.size() * sizeof(T);
  BKT_CUDA_CHECK(cudaMemcpyAsync(device.data(), values.data(), bytes, cudaMemcpyHostToDevice, stream));
  dist::all_reduce_sum(comm, std::span<T>(device.data(), values.size()), stream);
  BKT_CUDA_CHECK(cudaMemcpyAsync(values.data(), device.data(), bytes, cudaMemcpyDeviceToHost, stream));
  BKT_CUDA_CHECK(cudaStreamSynchronize(stream));
}

}  // namespace

bool can_sum_over_ranks() noexcept { return true; }

void sum_over_ranks(histogram_result& result, rank_context&) {
  std::vector<std::int64_t> integers = result.counts;
  integers.insert(integers.end(), {result.outside.below, result.outside.above, result.outside.nan, result.elements});
  std::vector<double> reals = result.sums;
  reals.insert(reals.end(), {result.outside.below_weight, result.outside.above_weight, result.outside.nan_weight});

  const dist::communicator comm(MPI_COMM_WORLD);
  const owned_stream stream;
  sum_on_device(comm, integers, stream.get());
  sum_on_device(comm, reals, stream.get());

  const std::size_t bins = result.counts.size();
  std::copy_n(integers.begin(), bins, result.counts.begin());
  result.outside.below = integers[bins];
  result.outside.above = integers[bins + 1];
  result.outside.nan = integers[bins + 2];
  result.elements = integers[bins + 3];
  const std::size_t sums = result.sums.size();
  std::copy_n(reals.begin(), sums, result.sums.begin());
  result.outside.below_weight = reals[sums];
  result.outside.above_weight = reals[sums + 1];
  result.outside.nan_weight = reals[sums + 2];
}

}  // namespace bkt::apps::histogram
