// bkt::dist::top_k: each rank's k best by bkt::top_k (sorted, ties by position), gathered on every
// rank in rank order, and the k best of the candidates by bkt::top_k_pairs with their global
// positions carried along. Among equal keys the candidates' order is their global order (each
// rank lists them by position, ranks come in order), so the single-GPU tie rule on the candidates
// is the tie rule on the whole.
#include <array>
#include <exception>
#include <limits>
#include <string>
#include <vector>

#include "../comm/access.hpp"
#include "../comm/collectives.hpp"
#include "../sort/kernels.cuh"
#include "bkt/detail/arguments.hpp"
#include "bkt/types.hpp"
#include "bkt/detail/workspace_layout.hpp"
#include "bkt/dist/select.hpp"
#include "bkt/select.hpp"

namespace bkt::dist {
namespace detail {

using bkt::detail::slice_at;
using bkt::detail::workspace_layout;
namespace {

template <class Index>
__global__ void narrow_positions_kernel(const std::int64_t* positions, std::int64_t count, Index* out) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < count;
       i += std::int64_t{gridDim.x} * blockDim.x)
    out[i] = static_cast<Index>(positions[i]);
}

template <class T, class Index>
void run_top_k(const communicator& comm, std::span<const T> data, std::int64_t k, std::span<T> values_out,
               std::span<Index> indices_out, workspace& ws, cudaStream_t stream, const top_k_options& options) {
  constexpr const char* call = "bkt::dist::top_k";
  const device_scope scope(comm.device());
  const int num_ranks = comm.size();
  const int me = comm.rank();
  const auto n_local = static_cast<std::int64_t>(data.size());
  const std::int64_t local_k = std::clamp<std::int64_t>(k, 0, n_local);
  call_record mine;
  mine.items = n_local;
  mine.agreed = {static_cast<std::int64_t>(sizeof(T)), std::is_floating_point_v<T> ? 1 : 0,
                 static_cast<std::int64_t>(sizeof(Index)), k, options.largest ? 1 : 0};
  static constexpr std::array<const char*, 5> names = {"the element size", "the element kind", "the index size", "k",
                                                       "largest"};
  bkt::top_k_options local_options;
  local_options.largest = options.largest;
  local_options.sorted = true;
  std::exception_ptr local_error;
  workspace_layout layout;
  const std::size_t most = static_cast<std::size_t>(std::max<std::int64_t>(k, 0));
  const std::size_t at_local_values = layout.add(static_cast<std::size_t>(local_k) * sizeof(T));
  const std::size_t at_local_positions = layout.add(static_cast<std::size_t>(local_k) * sizeof(std::int64_t));
  const std::size_t at_values = layout.add(static_cast<std::size_t>(num_ranks) * most * sizeof(T));
  const std::size_t at_positions = layout.add(static_cast<std::size_t>(num_ranks) * most * sizeof(std::int64_t));
  const std::size_t at_best = layout.add(most * sizeof(std::int64_t));
  void* base = nullptr;
  try {
    bkt::detail::expect_data(call, "data", data);
    bkt::detail::expect_data(call, "values_out", values_out);
    bkt::detail::expect_data(call, "indices_out", indices_out);
    if (k < 0) bkt::detail::throw_argument(std::string(call) + ": k = " + std::to_string(k) + " is negative");
    if ((!values_out.empty() && values_out.size() < most) || (!indices_out.empty() && indices_out.size() < most))
      bkt::detail::throw_argument(std::string(call) + ": an output holds fewer than k = " + std::to_string(k) +
                                  " elements");
    base = ws.own().reserve(layout.total_bytes(), stream);
    // This rank's candidates, before any data moves (bkt::top_k sizes its own workspace).
    if (local_k > 0)
      bkt::top_k<T, std::int64_t>(data, local_k, {slice_at<T>(base, at_local_values), static_cast<std::size_t>(local_k)},
                                  {slice_at<std::int64_t>(base, at_local_positions), static_cast<std::size_t>(local_k)},
                                  ws.primitives(), stream, local_options);
  } catch (const std::exception& e) {
    mine.status = classify(e);
    local_error = std::current_exception();
  }
  const agreement agreed = agree_sync(comm, call, mine, names, local_error, stream);
  if (k > agreed.total)
    throw_everywhere(call, "k = " + std::to_string(k) + " exceeds the " + std::to_string(agreed.total) + " elements");
  if (agreed.total > 0 && static_cast<std::uint64_t>(agreed.total - 1) >
                              static_cast<std::uint64_t>(std::numeric_limits<Index>::max()))
    throw_everywhere(call, "global positions up to " + std::to_string(agreed.total - 1) + " do not fit the index type");
  if (k == 0) return;

  auto* local_positions = slice_at<std::int64_t>(base, at_local_positions);
  add_offset(local_positions, local_k, agreed.starts[me], stream);
  std::vector<std::int64_t> value_bytes(num_ranks), value_offsets(num_ranks), position_bytes(num_ranks),
      position_offsets(num_ranks);
  std::int64_t candidates = 0;
  for (int r = 0; r < num_ranks; ++r) {
    const std::int64_t count = std::min(k, agreed.items[r]);
    value_bytes[r] = count * static_cast<std::int64_t>(sizeof(T));
    value_offsets[r] = candidates * static_cast<std::int64_t>(sizeof(T));
    position_bytes[r] = count * static_cast<std::int64_t>(sizeof(std::int64_t));
    position_offsets[r] = candidates * static_cast<std::int64_t>(sizeof(std::int64_t));
    candidates += count;
  }
  auto* values = slice_at<T>(base, at_values);
  auto* positions = slice_at<std::int64_t>(base, at_positions);
  // Values and positions in one NCCL group: one launch, not two.
  const std::array<gather_array, 2> gathers = {
      gather_array{slice_at<T>(base, at_local_values), values, value_bytes, value_offsets},
      gather_array{local_positions, positions, position_bytes, position_offsets}};
  all_gather_v_group(comm, gathers, stream);
  if (values_out.empty() && indices_out.empty()) return;

  // The k best candidates; their global positions straight into indices_out when it is int64.
  const auto count = static_cast<std::size_t>(candidates);
  std::span<std::int64_t> best(slice_at<std::int64_t>(base, at_best), most);
  if constexpr (std::is_same_v<Index, std::int64_t>)
    if (!indices_out.empty()) best = indices_out.first(most);
  bkt::top_k_pairs<T, std::int64_t>({values, count}, {positions, count}, k,
                                    values_out.empty() ? values_out : values_out.first(most), best, ws.primitives(),
                                    stream, local_options);
  if (!indices_out.empty() && best.data() != static_cast<void*>(indices_out.data())) {
    const auto blocks = static_cast<unsigned>(std::min<std::int64_t>((k + 255) / 256, 1024));
    narrow_positions_kernel<<<blocks, 256, 0, stream>>>(best.data(), k, indices_out.data());
    BKT_CHECK_LAUNCH(stream);
  }
}

}  // namespace
}  // namespace detail

template <class T, class Index>
void top_k(const communicator& comm, std::span<const std::type_identity_t<T>> data, std::int64_t k,
           std::span<T> values_out, std::span<Index> indices_out, workspace& ws, cudaStream_t stream,
           const top_k_options& options) {
  static_assert(std::is_same_v<Index, std::uint32_t> || std::is_same_v<Index, std::int64_t>,
                "indices: std::uint32_t or std::int64_t");
  detail::run_top_k<T, Index>(comm, data, k, values_out, indices_out, ws, stream, options);
}

#define BKT_INSTANTIATE_INDEX(T, Index)                                                                          \
  template void top_k<T, Index>(const communicator&, std::span<const T>, std::int64_t, std::span<T>,           \
                                std::span<Index>, workspace&, cudaStream_t, const top_k_options&);
#define BKT_INSTANTIATE(T)                    \
  BKT_INSTANTIATE_INDEX(T, std::uint32_t) \
  BKT_INSTANTIATE_INDEX(T, std::int64_t)
BKT_FOR_EACH_SELECT_TYPE(BKT_INSTANTIATE)
#undef BKT_INSTANTIATE
#undef BKT_INSTANTIATE_INDEX

}  // namespace bkt::dist
