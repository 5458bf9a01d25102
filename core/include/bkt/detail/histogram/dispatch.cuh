// Device-level histograms: the multisplit counting pass with one extra bucket for the elements
// outside every bin, counting straight into the caller's bins.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <type_traits>

#include "bkt/detail/histogram/arguments.hpp"
#include "bkt/detail/multisplit/count_kernel.cuh"
#include "bkt/error.hpp"
#include "bkt/workspace.hpp"

namespace bkt::detail::histogram {

using multisplit::no_weight;

/// out[0, bins) = per-bin counts (int64) or weight sums (double); *d_outside (or a workspace slot
/// when null) = the rest.
template <class T, class W, class Fn, class Out>
void run(const T* data, const W* weights, std::int64_t num_items, int bins, Fn fn, Out* out, Out* d_outside,
         workspace& ws, cudaStream_t stream) {
  static_assert(std::is_trivially_copyable_v<Fn>, "bin functors must be trivially copyable");
  using total_type = typename multisplit::count_args<T, W>::total_type;
  static_assert(sizeof(total_type) == sizeof(Out), "int64 counts or double sums");
  Out* outside = d_outside != nullptr ? d_outside : static_cast<Out*>(ws.reserve(workspace_bytes, stream));
  BKT_CUDA_CHECK(cudaMemsetAsync(out, 0, static_cast<std::size_t>(bins) * sizeof(Out), stream));
  BKT_CUDA_CHECK(cudaMemsetAsync(outside, 0, sizeof(Out), stream));
  multisplit::launch_count<T, W>(data, weights, num_items, bins + 1, fn, reinterpret_cast<total_type*>(out),
                                 reinterpret_cast<total_type*>(outside), stream);
}

}  // namespace bkt::detail::histogram
