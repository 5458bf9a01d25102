// Host-memory compaction: the GPU when one is usable, the CPU reference otherwise.
#include <cuda_runtime_api.h>

#include "bkt/compact.hpp"
#include "bkt/gpu.hpp"
#include "bkt/memory.hpp"
#include "bkt/ref/compact.hpp"
#include "../host_backend.hpp"
#include "bkt/types.hpp"

namespace bkt::host {
namespace {

using detail::use_gpu;

/// Copies `in` (and `flags`) to the device, runs `call`, copies the chosen prefix or all of `out` back.
template <class T, class Call>
std::int64_t on_gpu(std::span<const T> in, std::span<T> out, bool whole_output, Call call) {
  const detail::call_stream stream;
  workspace ws;
  auto d_in = to_device(in, stream);
  device_buffer<T> d_out(static_cast<std::int64_t>(in.size()), stream);
  device_buffer<std::int64_t> d_count(1, stream);
  call(d_in.span(), d_out.span(), d_count.data(), ws, stream);
  const std::int64_t count = read_sync(d_count.data(), stream);
  const std::size_t copied = whole_output ? in.size() : static_cast<std::size_t>(count);
  if (copied > 0)
    BKT_CUDA_CHECK(cudaMemcpyAsync(out.data(), d_out.data(), copied * sizeof(T), cudaMemcpyDeviceToHost, stream));
  BKT_CUDA_CHECK(cudaStreamSynchronize(stream));
  return count;
}

}  // namespace

template <class T>
std::int64_t select_if(std::span<const std::type_identity_t<T>> in, std::span<T> out, compare_with<T> pred,
                       backend where) {
  BKT_EXPECTS(out.size() >= in.size(), "select_if: output smaller than input");
  if (!use_gpu(where)) return ref::select_if<T>(in, out, pred);
  return on_gpu<T>(in, out, false, [&](std::span<const T> d_in, std::span<T> d_out, std::int64_t* d_count,
                                       workspace& ws, cudaStream_t stream) {
    bkt::select_if<T>(d_in, d_out, d_count, pred, ws, stream);
  });
}

template <class T>
std::int64_t select_flagged(std::span<const std::type_identity_t<T>> in, std::span<const std::uint8_t> flags,
                            std::span<T> out, backend where) {
  BKT_EXPECTS(out.size() >= in.size(), "select_flagged: output smaller than input");
  BKT_EXPECTS(flags.size() == in.size(), "select_flagged: flags and input differ in size");
  if (!use_gpu(where)) return ref::select_flagged<T>(in, flags, out);
  return on_gpu<T>(in, out, false, [&](std::span<const T> d_in, std::span<T> d_out, std::int64_t* d_count,
                                       workspace& ws, cudaStream_t stream) {
    auto d_flags = to_device(flags, stream);
    bkt::select_flagged<T>(d_in, d_flags.span(), d_out, d_count, ws, stream);
  });
}

template <class T>
std::int64_t stable_partition(std::span<const std::type_identity_t<T>> in, std::span<T> out, compare_with<T> pred,
                              backend where) {
  BKT_EXPECTS(out.size() >= in.size(), "stable_partition: output smaller than input");
  if (!use_gpu(where)) return ref::stable_partition<T>(in, out, pred);
  return on_gpu<T>(in, out, true, [&](std::span<const T> d_in, std::span<T> d_out, std::int64_t* d_count,
                                      workspace& ws, cudaStream_t stream) {
    bkt::stable_partition<T>(d_in, d_out, d_count, pred, ws, stream);
  });
}

#define BKT_INSTANTIATE(T)                                                                                       \
  template std::int64_t select_if<T>(std::span<const T>, std::span<T>, compare_with<T>, backend);               \
  template std::int64_t select_flagged<T>(std::span<const T>, std::span<const std::uint8_t>, std::span<T>,      \
                                          backend);                                                             \
  template std::int64_t stable_partition<T>(std::span<const T>, std::span<T>, compare_with<T>, backend);
BKT_FOR_EACH_KEY_TYPE(BKT_INSTANTIATE)
#undef BKT_INSTANTIATE

}  // namespace bkt::host
