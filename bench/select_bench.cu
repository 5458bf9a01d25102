// Selection and top-k against CUB on 2^28 f32 keys (larger than the 50 MB L2), same data, same
// process.
//
// Bytes that must move (the limit): one read of the input, n * 4 B; top_k adds the writes of its k
// values and k indices, k * (4 + 4) B (rows * k * 8 B batched). Whatever else moves (the candidates
// a filter keeps, a recursion level, a sort) is overhead against that limit.
//
// Peers, what a CUB user writes today:
// - select_kth, approx_select, multiselect: cub::DeviceRadixSort::SortKeys, then the element of each
//   rank copied out on the device. Exact, so ranks agree bit for bit.
// - top_k: cub::DeviceTopK::MaxPairs (CCCL >= 3.2) over the keys and a counting iterator of
//   positions; it is unsorted and not deterministic among ties, so sorted rows add SortPairsDescending
//   of its k pairs. This translation unit sees that CCCL only when configured with
//   BKT_BENCH_CCCL_PEER_INCLUDE (scripts/fetch-cccl-peer.sh); it includes public bkt headers and
//   bkt/detail/select/baselines.hpp only, which include no CUB, so the toolkit's CCCL (core's) and
//   the peer's never meet in one TU.
//   Without it the rows say "DeviceTopK peer unavailable" and the peer is SortPairsDescending of
//   (key, position), whose first k are the answer.
// - top_k_batched: cub::DeviceSegmentedSort::SortPairsDescending of (key, column), one segment per
//   row, then the first k of each row copied out.
//
// Baselines, rows marked [name]: the selection algorithms that bkt/select.hpp does not offer
// because they lost everywhere measured (bkt/detail/select/baselines.hpp), timed on the same data.
//
// Checks: ranks agree bit for bit with the sort; top-k keys agree with the peer's as multisets
// (ties at the k-th place may keep different positions), and each of our indices points at its key.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>
#if defined(BKT_HAVE_CUB_TOPK)
#include <cub/device/device_topk.cuh>
#include <cuda/iterator>
#include <cuda/stream_ref>
static_assert(CUB_VERSION >= 300200, "BKT_HAVE_CUB_TOPK: a CCCL with DeviceTopK (>= 3.2) must come first on the path");
#endif

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "bkt/detail/select/baselines.hpp"
#include "bkt/device_buffer.hpp"
#include "bkt/memory.hpp"
#include "bkt/select.hpp"
#include "cub_peer.cuh"
#include "harness.hpp"
#include "inputs.cuh"

namespace {

using bkt::bench::comparison;
using bkt::bench::cub_storage;
using bkt::bench::with_cub_count;
using index_t = std::uint32_t;  // n <= 2^32 here, the narrow index type top_k takes

constexpr std::int64_t top_k_sizes[] = {1, 32, 1024, 1 << 16, 1 << 20};

/// What every row needs.
struct context {
  bkt::bench::report& rep;
  const bkt::bench::options& opts;
  bkt::workspace& ws;
  cudaStream_t stream;
};

/// As bkt::bench::compare, but `check` returns a note for the row's name ("rank error 3",
/// "1.12x uniform"), known only after the runs.
void measure(context& c, comparison row, std::string peer_name, const std::function<void(cudaStream_t)>& ours,
             const std::function<void(cudaStream_t)>& peer, const std::function<std::string(const comparison&)>& check) {
  row.ours = bkt::bench::time_it(ours, c.stream, c.opts.repeats);
  row.peer_name = std::move(peer_name);
  row.peer = bkt::bench::time_it(peer, c.stream, c.opts.repeats);
  const std::string note = check(row);
  if (!note.empty()) row.name += " (" + note + ")";
  c.rep.add(std::move(row));
}

[[noreturn]] void mismatch(const std::string& what, const std::string& why) {
  std::fprintf(stderr, "MISMATCH %s: %s\n", what.c_str(), why.c_str());
  std::exit(1);
}

std::string ratio_note(double ms, double uniform_ms) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2fx uniform", ms / uniform_ms);
  return text;
}

// The adversarial inputs: the same hash of the position, shaped.
enum class shape { uniform, all_equal, ascending, few_distinct, clustered };
constexpr shape adversarial_shapes[] = {shape::all_equal, shape::ascending, shape::few_distinct, shape::clustered};

const char* shape_name(shape s) {
  switch (s) {
    case shape::all_equal: return "all_equal";
    case shape::ascending: return "ascending";
    case shape::few_distinct: return "16_distinct";
    case shape::clustered: return "clustered";
    default: return "uniform";
  }
}

struct shaped_keys {
  shape s;
  std::int64_t n;
  __device__ float operator()(std::int64_t i) const {
    const std::uint64_t h = bkt::bench::hashed_index(i);
    switch (s) {
      case shape::all_equal: return 0.5f;
      case shape::ascending: return static_cast<float>(i) / static_cast<float>(n);  // non-decreasing
      case shape::few_distinct: return static_cast<float>(h >> 60) / 16.0f;
      // 8 clusters 2^-12 wide at c/8 + 1/16: the top bits of every key are one of 8 patterns.
      case shape::clustered: return static_cast<float>(h & 7) / 8.0f + 0.0625f + static_cast<float>(h >> 52) * 0x1.0p-24f;
      default: return bkt::bench::uniform_key<float>(i);
    }
  }
};

__global__ void gather_ranks(const float* sorted, const std::int64_t* ranks, int count, float* out) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) out[i] = sorted[ranks[i]];
}

/// keys_out/indices_out[r * k + j] = keys/indices[r * cols + j]: the first k of each sorted row.
__global__ void take_first_k(const float* keys, const index_t* indices, std::int64_t rows, std::int64_t cols,
                             std::int64_t k, float* keys_out, index_t* indices_out) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < rows * k;
       i += std::int64_t{gridDim.x} * blockDim.x) {
    const std::int64_t from = i / k * cols + i % k;
    keys_out[i] = keys[from];
    indices_out[i] = indices[from];
  }
}

/// out[r * k + j] = data[r * cols + indices[r * k + j]], or NaN for an index outside the row.
__global__ void gather_by_index(const float* data, const index_t* indices, std::int64_t rows, std::int64_t cols,
                                std::int64_t k, float* out) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < rows * k;
       i += std::int64_t{gridDim.x} * blockDim.x)
    out[i] = indices[i] < cols ? data[i / k * cols + indices[i]] : __int_as_float(0x7fc00000);
}

std::vector<float> host_copy(const float* d, std::int64_t count, cudaStream_t stream) {
  return bkt::to_host_sync<float>({d, static_cast<std::size_t>(count)}, stream);
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

/// Stops the benchmark unless, in every row, our k keys are the peer's (as multisets), each index is
/// a distinct position in the row holding its key, and (sorted) the keys descend with equal keys by
/// position.
void expect_top_k(const float* data, std::int64_t rows, std::int64_t cols, std::int64_t k, const float* keys,
                  const index_t* indices, const float* peer_keys, bool sorted, const std::string& what,
                  cudaStream_t stream) {
  bkt::device_buffer<float> gathered(rows * k, stream);
  gather_by_index<<<1024, 256, 0, stream>>>(data, indices, rows, cols, k, gathered.data());
  BKT_CHECK_LAUNCH(stream);
  const auto ours = host_copy(keys, rows * k, stream), peer = host_copy(peer_keys, rows * k, stream);
  const auto at_index = host_copy(gathered.data(), rows * k, stream);
  const auto idx = bkt::to_host_sync<index_t>({indices, static_cast<std::size_t>(rows * k)}, stream);
  std::vector<float> a(k), b(k);
  std::vector<index_t> positions(k);
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::int64_t first = r * k;
    for (std::int64_t j = 0; j < k; ++j) {
      if (!same_bits(at_index[first + j], ours[first + j]))
        mismatch(what, "row " + std::to_string(r) + ": index " + std::to_string(idx[first + j]) + " does not hold its key");
      if (sorted && j > 0 &&
          (ours[first + j - 1] < ours[first + j] ||
           (ours[first + j - 1] == ours[first + j] && idx[first + j - 1] > idx[first + j])))
        mismatch(what, "row " + std::to_string(r) + ": not sorted at " + std::to_string(j));
    }
    std::copy_n(idx.begin() + first, k, positions.begin());
    std::sort(positions.begin(), positions.end());
    if (std::adjacent_find(positions.begin(), positions.end()) != positions.end())
      mismatch(what, "row " + std::to_string(r) + ": a position appears twice");
    std::copy_n(ours.begin() + first, k, a.begin());
    std::copy_n(peer.begin() + first, k, b.begin());
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    if (std::memcmp(a.data(), b.data(), k * sizeof(float)) != 0)
      mismatch(what, "row " + std::to_string(r) + ": the selected keys differ from the peer's");
  }
}

/// Device buffers shared by the rows; one input of n keys at a time.
struct buffers {
  std::int64_t n;
  bkt::device_buffer<float> data, sorted, result, peer_result;
  bkt::device_buffer<index_t> positions, sorted_positions, indices, peer_indices;
  buffers(std::int64_t n, std::int64_t max_out, cudaStream_t stream)
      : n(n), data(n, stream), sorted(n, stream), result(max_out, stream), peer_result(max_out, stream),
        positions(n, stream), sorted_positions(n, stream), indices(max_out, stream), peer_indices(max_out, stream) {}
  std::span<const float> input() const { return data.span(); }
};

/// cub::DeviceRadixSort::SortKeys of the input into b.sorted, prepared for timing.
std::function<void(cudaStream_t)> cub_sort(buffers& b, cub_storage& cub, cudaStream_t stream) {
  return cub.prepare(
      [&b](void* t, std::size_t& bytes, cudaStream_t s) {
        return with_cub_count(b.n, [&](auto count) {
          return cub::DeviceRadixSort::SortKeys(t, bytes, b.data.data(), b.sorted.data(), count, 0, 32, s);
        });
      },
      stream);
}

/// select_kth of rank k: the public call (baseline none) or a baseline that bkt/select.hpp does not
/// offer; returns our median time. `uniform_ms` > 0 adds the ratio.
double bench_select_kth(context& c, buffers& b, cub_storage& cub, std::int64_t k, const std::string& name,
                        bkt::detail::select_baseline baseline, double uniform_ms = 0) {
  const auto sort = cub_sort(b, cub, c.stream);
  double ours_ms = 0;
  measure(
      c, {name, static_cast<double>(b.n), 4.0 * b.n, "read n*4"}, "cub::SortKeys+[k]",
      [&](cudaStream_t s) {
        if (baseline == bkt::detail::select_baseline::none)
          bkt::select_kth<float>(b.input(), k, b.result.data(), c.ws, s);
        else
          bkt::detail::select_kth_baseline<float>(b.input(), k, b.result.data(), c.ws, s, baseline, {});
      },
      [&](cudaStream_t s) {
        sort(s);
        BKT_CUDA_CHECK(cudaMemcpyAsync(b.peer_result.data(), b.sorted.data() + k, sizeof(float), cudaMemcpyDeviceToDevice, s));
      },
      [&](const comparison& row) {
        const float ours = bkt::read_sync(b.result.data(), c.stream), peer = bkt::read_sync(b.peer_result.data(), c.stream);
        if (!same_bits(ours, peer)) mismatch(row.name, "rank " + std::to_string(k) + " differs from the sort's");
        ours_ms = row.ours.median_ms;
        return uniform_ms > 0 ? ratio_note(row.ours.median_ms, uniform_ms) : std::string();
      });
  return ours_ms;
}

/// The top-k peer: DeviceTopK (then a sort of its k pairs when sorted), or the sort of every pair.
struct top_k_peer {
  buffers& b;
  cub_storage& select_storage;
  cub_storage& sort_storage;
  bkt::device_buffer<float> keys;  // DeviceTopK's unsorted output, before the sort
  bkt::device_buffer<index_t> indices;

  std::string name(bool sorted) const {
#if defined(BKT_HAVE_CUB_TOPK)
    return sorted ? "cub::DeviceTopK+sort" : "cub::DeviceTopK";
#else
    (void)sorted;
    return "cub::SortPairsDesc (DeviceTopK peer unavailable)";
#endif
  }

  /// The work to time; afterwards the k keys are at b.peer_result (or b.sorted without DeviceTopK).
  std::function<void(cudaStream_t)> prepare(std::int64_t k, bool sorted, cudaStream_t stream) {
#if defined(BKT_HAVE_CUB_TOPK)
    const auto select = select_storage.prepare(
        [this, k, sorted](void* t, std::size_t& bytes, cudaStream_t s) {
          // DeviceTopK implements only this contract so far; it must be asked for explicitly.
          const auto env = cuda::std::execution::env{
              cuda::stream_ref{s}, cuda::execution::require(cuda::execution::determinism::not_guaranteed,
                                                            cuda::execution::output_ordering::unsorted)};
          float* keys_out = sorted ? keys.data() : b.peer_result.data();
          index_t* indices_out = sorted ? indices.data() : b.peer_indices.data();
          return cub::DeviceTopK::MaxPairs(t, bytes, b.data.data(), keys_out, cuda::counting_iterator<index_t>{0},
                                           indices_out, static_cast<int>(b.n), static_cast<int>(k), env);
        },
        stream);
    if (!sorted) return select;
    const auto order = sort_storage.prepare(
        [this, k](void* t, std::size_t& bytes, cudaStream_t s) {
          return cub::DeviceRadixSort::SortPairsDescending(t, bytes, keys.data(), b.peer_result.data(), indices.data(),
                                                           b.peer_indices.data(), static_cast<int>(k), 0, 32, s);
        },
        stream);
    return [select, order](cudaStream_t s) {
      select(s);
      order(s);
    };
#else
    (void)k;
    (void)sorted;
    return sort_storage.prepare(
        [this](void* t, std::size_t& bytes, cudaStream_t s) {
          return with_cub_count(b.n, [&](auto count) {
            return cub::DeviceRadixSort::SortPairsDescending(t, bytes, b.data.data(), b.sorted.data(), b.positions.data(),
                                                             b.sorted_positions.data(), count, 0, 32, s);
          });
        },
        stream);
#endif
  }

  const float* result_keys() const {
#if defined(BKT_HAVE_CUB_TOPK)
    return b.peer_result.data();
#else
    return b.sorted.data();
#endif
  }
};

/// top_k (largest, with indices) of k; returns our median time. `uniform_ms` > 0 adds the ratio.
double bench_top_k(context& c, buffers& b, top_k_peer& peer, std::int64_t k, bool sorted, const std::string& name,
                   double uniform_ms = 0) {
  const auto peer_work = peer.prepare(k, sorted, c.stream);
  double ours_ms = 0;
  measure(
      c, {name, static_cast<double>(b.n), 4.0 * b.n + 8.0 * k, "read n*4 + write k*(4+4)"}, peer.name(sorted),
      [&](cudaStream_t s) {
        bkt::top_k<float, index_t>(b.input(), k, b.result.span().first(k), b.indices.span().first(k), c.ws, s,
                                   {.largest = true, .sorted = sorted});
      },
      peer_work,
      [&](const comparison& row) {
        expect_top_k(b.data.data(), 1, b.n, k, b.result.data(), b.indices.data(), peer.result_keys(), sorted, row.name,
                     c.stream);
        ours_ms = row.ours.median_ms;
        return uniform_ms > 0 ? ratio_note(row.ours.median_ms, uniform_ms) : std::string();
      });
  return ours_ms;
}

/// approx_select of the median: the rank error goes into the row's name.
void bench_approx_select(context& c, buffers& b, cub_storage& cub) {
  const std::int64_t k = b.n / 2;
  const auto sort = cub_sort(b, cub, c.stream);
  bkt::device_buffer<bkt::approx_selection<float>> result(1, c.stream);
  measure(
      c, {"approx_select k=n/2", static_cast<double>(b.n), 4.0 * b.n, "read n*4"}, "cub::SortKeys+[k]",
      [&](cudaStream_t s) { bkt::approx_select<float>(b.input(), k, result.data(), c.ws, s); },
      [&](cudaStream_t s) {
        sort(s);
        BKT_CUDA_CHECK(cudaMemcpyAsync(b.peer_result.data(), b.sorted.data() + k, sizeof(float), cudaMemcpyDeviceToDevice, s));
      },
      [&](const comparison& row) {
        // The certificate must hold in the sorted input: value fills exactly [rank_first, rank_last].
        const auto got = bkt::read_sync(result.data(), c.stream);
        const auto sorted = [&](std::int64_t i) { return bkt::read_sync(b.sorted.data() + i, c.stream); };
        const std::int64_t error = k < got.rank_first ? got.rank_first - k : k > got.rank_last ? k - got.rank_last : 0;
        if (got.rank_first < 0 || got.rank_last >= b.n || got.rank_first > got.rank_last ||
            !same_bits(sorted(got.rank_first), got.value) || !same_bits(sorted(got.rank_last), got.value) ||
            (got.rank_first > 0 && !(sorted(got.rank_first - 1) < got.value)) ||
            (got.rank_last + 1 < b.n && !(sorted(got.rank_last + 1) > got.value)) || got.rank_error != error)
          mismatch(row.name, "the certificate (ranks " + std::to_string(got.rank_first) + ".." +
                                 std::to_string(got.rank_last) + ", error " + std::to_string(got.rank_error) +
                                 ") does not hold in the sorted input");
        char note[64];
        std::snprintf(note, sizeof note, "rank error %lld = %.2g n", static_cast<long long>(got.rank_error),
                      static_cast<double>(got.rank_error) / static_cast<double>(b.n));
        return std::string(note);
      });
}

/// multiselect of 1023 evenly spaced quantiles against the sort and a gather.
void bench_multiselect(context& c, buffers& b, cub_storage& cub, const std::string& name) {
  constexpr int count = 1023;
  std::vector<std::int64_t> ranks(count);
  for (int i = 0; i < count; ++i) ranks[i] = (i + 1) * b.n / (count + 1);
  const auto d_ranks = bkt::to_device<std::int64_t>(ranks, c.stream);
  const auto sort = cub_sort(b, cub, c.stream);
  measure(
      c, {name, static_cast<double>(b.n), 4.0 * b.n, "read n*4"}, "cub::SortKeys+gather",
      [&](cudaStream_t s) { bkt::multiselect<float>(b.input(), ranks, b.result.span().first(count), c.ws, s); },
      [&](cudaStream_t s) {
        sort(s);
        gather_ranks<<<4, 256, 0, s>>>(b.sorted.data(), d_ranks.data(), count, b.peer_result.data());
        BKT_CHECK_LAUNCH(s);
      },
      [&](const comparison& row) {
        const auto ours = host_copy(b.result.data(), count, c.stream), peer = host_copy(b.peer_result.data(), count, c.stream);
        if (std::memcmp(ours.data(), peer.data(), count * sizeof(float)) != 0)
          mismatch(row.name, "the quantiles differ from the sort's");
        return std::string();
      });
}

/// top_k_batched of rows x cols (rows = n / cols) against a segmented sort and the first k per row.
void bench_batched(context& c, buffers& b, cub_storage& cub, std::int64_t cols, std::int64_t k) {
  const std::int64_t rows = b.n / cols, items = rows * cols;
  bkt::bench::fill(b.positions.data(), items, [cols] __device__(std::int64_t i) { return static_cast<index_t>(i % cols); },
                   c.stream);
  std::vector<int> offsets(rows + 1);
  for (std::int64_t r = 0; r <= rows; ++r) offsets[r] = static_cast<int>(r * cols);
  const auto d_offsets = bkt::to_device<int>(offsets, c.stream);
  const auto segmented_sort = cub.prepare(
      [&](void* t, std::size_t& bytes, cudaStream_t s) {
        return cub::DeviceSegmentedSort::SortPairsDescending(t, bytes, b.data.data(), b.sorted.data(), b.positions.data(),
                                                             b.sorted_positions.data(), static_cast<int>(items),
                                                             static_cast<int>(rows), d_offsets.data(), d_offsets.data() + 1, s);
      },
      c.stream);
  const std::string name =
      "top_k_batched " + std::to_string(rows) + "x" + std::to_string(cols) + " k=" + std::to_string(k);
  measure(
      c, {name, static_cast<double>(items), 4.0 * items + 8.0 * rows * k, "read n*4 + write rows*k*(4+4)"},
      "cub::SegSortPairsDesc",
      [&](cudaStream_t s) {
        bkt::top_k_batched<float, index_t>(b.data.span().first(items), rows, k, b.result.span().first(rows * k),
                                           b.indices.span().first(rows * k), c.ws, s, {.largest = true, .sorted = false});
      },
      [&](cudaStream_t s) {
        segmented_sort(s);
        take_first_k<<<1024, 256, 0, s>>>(b.sorted.data(), b.sorted_positions.data(), rows, cols, k,
                                          b.peer_result.data(), b.peer_indices.data());
        BKT_CHECK_LAUNCH(s);
      },
      [&](const comparison& row) {
        expect_top_k(b.data.data(), rows, cols, k, b.result.data(), b.indices.data(), b.peer_result.data(), false,
                     row.name, c.stream);
        return std::string();
      });
}

void fill_shape(buffers& b, shape s, cudaStream_t stream) { bkt::bench::fill(b.data.data(), b.n, shaped_keys{s, b.n}, stream); }

}  // namespace

int main(int argc, char** argv) {
  return bkt::bench::run_main(
      argc, argv, "select_bench", "Selection and top-k: bucketeer against CUB (sort, DeviceTopK, segmented sort)",
      [](const bkt::bench::options& opts, cudaStream_t stream) {
        const std::int64_t n = std::int64_t{1} << opts.log2_items;
        BKT_EXPECTS(n <= (std::int64_t{1} << 31) - 1, "select_bench: n must fit CUB's int count (--log2-items <= 30)");
#if defined(BKT_HAVE_CUB_TOPK)
        std::printf("top_k peer: cub::DeviceTopK (CUB %d)\n", CUB_VERSION);
#else
        std::printf("top_k peer: DeviceTopK peer unavailable (CUB %d); SortPairsDescending + first k instead\n",
                    CUB_VERSION);
#endif
        bkt::bench::report rep("selection f32, n = 2^" + std::to_string(opts.log2_items), opts, stream);
        bkt::workspace ws;  // one workspace and one CUB storage per role for every row, grown in warm-up
        cub_storage sort_storage, topk_storage, small_sort_storage;
        context c{rep, opts, ws, stream};
        const std::int64_t batched_out = std::max<std::int64_t>(n / 4096 * 256, 1 << 20);
        buffers b(n, std::min(n, batched_out), stream);
        bkt::bench::fill(b.positions.data(), n, bkt::bench::positions<index_t>{}, stream);
        top_k_peer peer{b, topk_storage, small_sort_storage, bkt::device_buffer<float>(1 << 20, stream),
                        bkt::device_buffer<index_t>(1 << 20, stream)};

        fill_shape(b, shape::uniform, stream);
        using bkt::detail::select_baseline;
        const double median_ms = bench_select_kth(c, b, sort_storage, n / 2, "select_kth median", select_baseline::none);
        bench_select_kth(c, b, sort_storage, n / 100, "select_kth k=n/100", select_baseline::none);
        // The baselines (bkt/detail/select/baselines.hpp): rows marked [name], without a target.
        double sample_select_median_ms = 0;
        for (const auto& [baseline, label] : {std::pair{select_baseline::sample_select, "sample_select"},
                                             std::pair{select_baseline::quickselect, "quickselect"},
                                             std::pair{select_baseline::bucket_select, "bucket_select"},
                                             std::pair{select_baseline::radix_sort, "radix_sort"}}) {
          const double ms = bench_select_kth(c, b, sort_storage, n / 2, std::string("select_kth median [") + label + "]", baseline);
          if (baseline == select_baseline::sample_select) sample_select_median_ms = ms;
          bench_select_kth(c, b, sort_storage, n / 100, std::string("select_kth k=n/100 [") + label + "]", baseline);
        }
        double top_k_1024_ms = 0;
        for (const std::int64_t k : top_k_sizes) {
          if (k > n) continue;
          for (const bool sorted : {false, true}) {
            const double ms = bench_top_k(c, b, peer, k, sorted,
                                          "top_k k=" + std::to_string(k) + (sorted ? " sorted" : " unsorted"));
            if (k == 1024 && !sorted) top_k_1024_ms = ms;
          }
        }
        bench_approx_select(c, b, sort_storage);
        bench_multiselect(c, b, sort_storage, "multiselect 1023 quantiles");
        for (const std::int64_t cols : {std::int64_t{65536}, std::int64_t{4096}})
          for (const std::int64_t k : {32, 256})
            if (cols <= n) bench_batched(c, b, sort_storage, cols, k);
        // The batched peer left column numbers in b.positions; the sort-based top_k peer reads positions.
        bkt::bench::fill(b.positions.data(), n, bkt::bench::positions<index_t>{}, stream);
        // Adversarial inputs last: they overwrite the uniform input.
        for (const shape s : adversarial_shapes) {
          fill_shape(b, s, stream);
          const std::string adv = std::string(" adv=") + shape_name(s);
          bench_select_kth(c, b, sort_storage, n / 2, "select_kth median" + adv, select_baseline::none, median_ms);
          bench_select_kth(c, b, sort_storage, n / 2, "select_kth median [sample_select]" + adv,
                           select_baseline::sample_select, sample_select_median_ms);
          if (top_k_1024_ms > 0) bench_top_k(c, b, peer, 1024, false, "top_k k=1024 unsorted" + adv, top_k_1024_ms);
          bench_multiselect(c, b, sort_storage, "multiselect 1023 quantiles" + adv);
        }
        rep.finish();
      });
}
