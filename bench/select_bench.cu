// Selection and top-k against CUB on 2^28 f32 keys (larger than the 50 MB L2), same data, same
// process.
//
// Bytes that must move (the limit): one read of the input, n * 4 B; top_k adds the writes of its k
// values and k indices, k * (4 + 4) B (rows * k * 8 B batched). Whatever else moves (the candidates
// a filter keeps, a recursion level, a sort) is overhead against that limit.
//
// Peers, what a CUB user writes today, each called every way a user can (int and int64_t counts,
// int and int64_t segment offsets; bkt::bench::cub_count_calls), the row reporting the fastest call:
// - select_kth, approx_select, multiselect: cub::DeviceRadixSort::SortKeys, then the element of each
//   rank copied out on the device. Exact, so ranks agree bit for bit.
// - top_k: cub::DeviceTopK::MaxPairs (CCCL >= 3.2) over the keys and a counting iterator of
//   positions; it is unsorted and not deterministic among ties, so sorted rows add SortPairsDescending
//   of its k pairs (the toolkit's CCCL).
// - top_k_batched: cub::DeviceBatchedTopK::MaxPairs (CCCL >= 3.5) of (key, column), one segment per
//   row, for rows it takes (at most 8192 f32); and, as a second row of each case,
//   cub::DeviceSegmentedSort::SortPairsDescending of (key, column), then the first k of each row
//   copied out.
// DeviceTopK and DeviceBatchedTopK come from a newer CCCL than the toolkit's, through
// select_topk_peer.cu, the one translation unit that BKT_BENCH_CCCL_PEER_INCLUDE compiles against
// those headers (scripts/fetch-cccl-peer.sh); every other peer here is the toolkit's CCCL, and each
// row names the CCCL of its peer. Without those headers the top_k rows say "DeviceTopK peer
// unavailable" and their peer is SortPairsDescending of (key, position), whose first k are the
// answer; the batched rows say "DeviceBatchedTopK peer unavailable" and keep the segmented sort.
// The DoubleBuffer forms of the sorts are not timed here: they sort in place, so every run would
// first copy the input back, which the pointer form spares (radix_sort_bench times both forms).
//
// Baselines, rows marked [name]: the selection algorithms that bkt/select.hpp does not offer
// because they lost everywhere measured (bkt/detail/select/baselines.hpp), timed on the same data.
//
// Checks: ranks agree bit for bit with the sort; top-k keys agree with the peer's as multisets
// (ties at the k-th place may keep different positions), and each index, ours and the peer's,
// points at its key (ours are also distinct positions).
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>

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
#include "cub_sort_peer.cuh"
#include "harness.hpp"
#include "inputs.cuh"
#include "select_topk_peer.hpp"

namespace {

using bkt::bench::comparison;
using bkt::bench::cub_count_calls;
using bkt::bench::cub_storage;
using bkt::bench::peer_call;
using index_t = std::uint32_t;  // n <= 2^32 here, the narrow index type top_k takes

constexpr std::int64_t top_k_sizes[] = {1, 32, 1024, 1 << 16, 1 << 20};

/// What every row needs.
struct context {
  bkt::bench::report& rep;
  const bkt::bench::options& opts;
  bkt::workspace& ws;
  cudaStream_t stream;
};

/// bkt::bench::compare, with a `check` that returns a note for the row's name ("rank error 3",
/// "1.12x uniform"), known only after the runs.
void measure(context& c, comparison row, const std::vector<peer_call>& peers, const std::function<void(cudaStream_t)>& ours,
             const std::function<std::string(const comparison&)>& check) {
  bkt::bench::compare(c.rep, c.opts, std::move(row), peers, ours,
                      [&check](comparison& r) {
                        const std::string note = check(r);
                        if (!note.empty()) r.name += " (" + note + ")";
                      },
                      c.stream);
}

/// Each of `calls` followed by `then` (timed with it), named NAME + suffix.
std::vector<peer_call> followed_by(const std::vector<peer_call>& calls, const std::string& suffix,
                                   const std::function<void(cudaStream_t)>& then) {
  std::vector<peer_call> out;
  for (const peer_call& call : calls)
    out.push_back({call.name + suffix,
                   [work = call.work, then](cudaStream_t s) {
                     work(s);
                     then(s);
                   },
                   call.publish});
  return out;
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

/// Stops the benchmark unless each of the rows * k indices points, within its row, at a key equal
/// bit for bit to its key; `who` names whose output it is.
void expect_indices_hold_keys(const float* data, std::int64_t rows, std::int64_t cols, std::int64_t k,
                              const float* keys, const index_t* indices, const std::string& what, const char* who,
                              cudaStream_t stream) {
  bkt::device_buffer<float> gathered(rows * k, stream);
  gather_by_index<<<1024, 256, 0, stream>>>(data, indices, rows, cols, k, gathered.data());
  BKT_CHECK_LAUNCH(stream);
  const auto want = host_copy(keys, rows * k, stream), at_index = host_copy(gathered.data(), rows * k, stream);
  const auto idx = bkt::to_host_sync<index_t>({indices, static_cast<std::size_t>(rows * k)}, stream);
  for (std::int64_t j = 0; j < rows * k; ++j)
    if (!same_bits(at_index[j], want[j]))
      mismatch(what, std::string(who) + " row " + std::to_string(j / k) + ": index " + std::to_string(idx[j]) +
                         " does not hold its key");
}

/// Stops the benchmark unless, in every row, our k keys are the peer's (as multisets), each of our
/// indices is a distinct position in the row holding its key, each of the peer's (when given)
/// holds its key, and (sorted) our keys descend with equal keys by position.
void expect_top_k(const float* data, std::int64_t rows, std::int64_t cols, std::int64_t k, const float* keys,
                  const index_t* indices, const float* peer_keys, const index_t* peer_indices, bool sorted,
                  const std::string& what, cudaStream_t stream) {
  expect_indices_hold_keys(data, rows, cols, k, keys, indices, what, "our", stream);
  if (peer_indices != nullptr) expect_indices_hold_keys(data, rows, cols, k, peer_keys, peer_indices, what, "the peer's", stream);
  const auto ours = host_copy(keys, rows * k, stream), peer = host_copy(peer_keys, rows * k, stream);
  const auto idx = bkt::to_host_sync<index_t>({indices, static_cast<std::size_t>(rows * k)}, stream);
  std::vector<float> a(k), b(k);
  std::vector<index_t> positions(k);
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::int64_t first = r * k;
    for (std::int64_t j = 1; sorted && j < k; ++j)
      if (ours[first + j - 1] < ours[first + j] ||
          (ours[first + j - 1] == ours[first + j] && idx[first + j - 1] > idx[first + j]))
        mismatch(what, "row " + std::to_string(r) + ": not sorted at " + std::to_string(j));
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

/// The toolkit's sorts that stand in as peers, prepared once: SortKeys of the input into b.sorted,
/// and SortPairsDescending of (key, position) into b.sorted and b.sorted_positions (the top_k peer
/// without DeviceTopK).
struct sort_peers {
  bkt::bench::cub_sort<float> keys;
  bkt::bench::cub_sort<float, index_t> pairs_descending;
  std::vector<peer_call> keys_calls, pairs_descending_calls;
  sort_peers(buffers& b, cub_storage& storage, cudaStream_t stream)
      : keys(b.data.data(), b.sorted.data(), nullptr, nullptr, b.n, 32, false, stream),
        pairs_descending(b.data.data(), b.sorted.data(), b.positions.data(), b.sorted_positions.data(), b.n, 32, true,
                         stream),
        keys_calls(keys.pointer_calls(storage, "cub::SortKeys", stream)),
        pairs_descending_calls(pairs_descending.pointer_calls(storage, "cub::SortPairsDesc", stream)) {}
  sort_peers(const sort_peers&) = delete;  // the prepared calls point at the sorts
};

/// The sort, then the element of rank k copied out: the select_kth and approx_select peer.
std::vector<peer_call> sort_then_rank(buffers& b, const sort_peers& sorts, std::int64_t k) {
  return followed_by(sorts.keys_calls, "+[k]", [&b, k](cudaStream_t s) {
    BKT_CUDA_CHECK(cudaMemcpyAsync(b.peer_result.data(), b.sorted.data() + k, sizeof(float), cudaMemcpyDeviceToDevice, s));
  });
}

/// select_kth of rank k: the public call (baseline none) or a baseline that bkt/select.hpp does not
/// offer; returns our median time. `uniform_ms` > 0 adds the ratio.
double bench_select_kth(context& c, buffers& b, const sort_peers& sorts, std::int64_t k, const std::string& name,
                        bkt::detail::select_baseline baseline, double uniform_ms = 0) {
  double ours_ms = 0;
  measure(
      c, {name, static_cast<double>(b.n), 4.0 * b.n, "read n*4"}, sort_then_rank(b, sorts, k),
      [&](cudaStream_t s) {
        if (baseline == bkt::detail::select_baseline::none)
          bkt::select_kth<float>(b.input(), k, b.result.data(), c.ws, s);
        else
          bkt::detail::select_kth_baseline<float>(b.input(), k, b.result.data(), c.ws, s, baseline, {});
      },
      [&](const comparison& row) {
        const float ours = bkt::read_sync(b.result.data(), c.stream), peer = bkt::read_sync(b.peer_result.data(), c.stream);
        if (!same_bits(ours, peer)) mismatch(row.name, "rank " + std::to_string(k) + " differs from the sort's");
        ours_ms = row.ours.median_ms;
        return uniform_ms > 0 ? ratio_note(row.ours.median_ms, uniform_ms) : std::string();
      });
  return ours_ms;
}

/// The top-k peer: DeviceTopK (then the toolkit's sort of its k pairs when sorted), or, without the
/// peer CCCL, the sort of every (key, position) pair.
struct top_k_peer {
  buffers& b;
  const sort_peers& sorts;
  cub_storage& select_storage;
  cub_storage& sort_storage;
  bkt::device_buffer<float> keys;  // DeviceTopK's unsorted output, before the sort
  bkt::device_buffer<index_t> indices;

  static bool available() { return !bkt::bench::topk_peer::cccl_version().empty(); }

  /// The CCCL the row's peer comes from ("" for the toolkit's).
  std::string cccl(bool sorted) const {
    if (!available()) return "";
    return bkt::bench::topk_peer::cccl_version() + (sorted ? ", sort " + bkt::bench::toolkit_cccl_version() : "");
  }

  /// The calls to time; afterwards the k keys are at result_keys() (and their positions at
  /// result_indices()).
  std::vector<peer_call> prepare(std::int64_t k, bool sorted, cudaStream_t stream) {
    if (!available()) return sorts.pairs_descending_calls;
    float* keys_out = sorted ? keys.data() : b.peer_result.data();
    index_t* indices_out = sorted ? indices.data() : b.peer_indices.data();
    auto select = bkt::bench::topk_peer::max_pairs(select_storage, b.data.data(), b.n, k, keys_out, indices_out, stream);
    if (!sorted) return select;
    // The k pairs sorted with the same count type as the selection's (both lists: i32, then i64).
    const auto order = cub_count_calls(
        sort_storage, "", k,
        [this](void* t, std::size_t& bytes, cudaStream_t s, auto count) {
          return cub::DeviceRadixSort::SortPairsDescending(t, bytes, keys.data(), b.peer_result.data(), indices.data(),
                                                           b.peer_indices.data(), count, 0, 32, s);
        },
        stream);
    std::vector<peer_call> calls;
    for (std::size_t i = 0; i < select.size() && i < order.size(); ++i)
      calls.push_back({select[i].name + "+SortPairsDesc",
                       [first = select[i].work, then = order[i].work](cudaStream_t s) {
                         first(s);
                         then(s);
                       }});
    return calls;
  }

  const float* result_keys() const { return available() ? b.peer_result.data() : b.sorted.data(); }
  const index_t* result_indices() const { return available() ? b.peer_indices.data() : b.sorted_positions.data(); }
};

/// top_k (largest, with indices) of k; returns our median time. `uniform_ms` > 0 adds the ratio.
double bench_top_k(context& c, buffers& b, top_k_peer& peer, std::int64_t k, bool sorted, std::string name,
                   double uniform_ms = 0) {
  if (!top_k_peer::available()) name += " (DeviceTopK peer unavailable)";
  comparison row{name, static_cast<double>(b.n), 4.0 * b.n + 8.0 * k, "read n*4 + write k*(4+4)"};
  row.peer_cccl = peer.cccl(sorted);
  double ours_ms = 0;
  measure(
      c, row, peer.prepare(k, sorted, c.stream),
      [&](cudaStream_t s) {
        bkt::top_k<float, index_t>(b.input(), k, b.result.span().first(k), b.indices.span().first(k), c.ws, s,
                                   {.largest = true, .sorted = sorted});
      },
      [&](const comparison& r) {
        expect_top_k(b.data.data(), 1, b.n, k, b.result.data(), b.indices.data(), peer.result_keys(),
                     top_k_peer::available() ? peer.result_indices() : nullptr, sorted, r.name, c.stream);
        ours_ms = r.ours.median_ms;
        return uniform_ms > 0 ? ratio_note(r.ours.median_ms, uniform_ms) : std::string();
      });
  return ours_ms;
}

/// approx_select of the median: the rank error goes into the row's name.
void bench_approx_select(context& c, buffers& b, const sort_peers& sorts) {
  const std::int64_t k = b.n / 2;
  bkt::device_buffer<bkt::approx_selection<float>> result(1, c.stream);
  measure(
      c, {"approx_select k=n/2", static_cast<double>(b.n), 4.0 * b.n, "read n*4"}, sort_then_rank(b, sorts, k),
      [&](cudaStream_t s) { bkt::approx_select<float>(b.input(), k, result.data(), c.ws, s); },
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
void bench_multiselect(context& c, buffers& b, const sort_peers& sorts, const std::string& name) {
  constexpr int count = 1023;
  std::vector<std::int64_t> ranks(count);
  for (int i = 0; i < count; ++i) ranks[i] = (i + 1) * b.n / (count + 1);
  const auto d_ranks = bkt::to_device<std::int64_t>(ranks, c.stream);
  measure(
      c, {name, static_cast<double>(b.n), 4.0 * b.n, "read n*4"},
      followed_by(sorts.keys_calls, "+gather",
                  [&](cudaStream_t s) {
                    gather_ranks<<<4, 256, 0, s>>>(b.sorted.data(), d_ranks.data(), count, b.peer_result.data());
                    BKT_CHECK_LAUNCH(s);
                  }),
      [&](cudaStream_t s) { bkt::multiselect<float>(b.input(), ranks, b.result.span().first(count), c.ws, s); },
      [&](const comparison& row) {
        const auto ours = host_copy(b.result.data(), count, c.stream), peer = host_copy(b.peer_result.data(), count, c.stream);
        if (std::memcmp(ours.data(), peer.data(), count * sizeof(float)) != 0)
          mismatch(row.name, "the quantiles differ from the sort's");
        return std::string();
      });
}

/// The row offsets r * cols, r = 0..rows, on the device.
template <class Offset>
bkt::device_buffer<Offset> row_offsets(std::int64_t rows, std::int64_t cols, cudaStream_t stream) {
  std::vector<Offset> offsets(rows + 1);
  for (std::int64_t r = 0; r <= rows; ++r) offsets[r] = static_cast<Offset>(r * cols);
  return bkt::to_device<Offset>(offsets, stream);
}

/// top_k_batched of rows x cols (rows = n / cols), k largest, unsorted: against
/// cub::DeviceBatchedTopK where it takes the row length (the row named after the case), and against
/// a segmented sort and the first k of each row (the row named "... (vs segmented sort)", or, where
/// DeviceBatchedTopK cannot run, named with the reason).
void bench_batched(context& c, buffers& b, cub_storage& cub, cub_storage& batched_storage, std::int64_t cols,
                   std::int64_t k) {
  const std::int64_t rows = b.n / cols, items = rows * cols;
  bkt::bench::fill(b.positions.data(), items, [cols] __device__(std::int64_t i) { return static_cast<index_t>(i % cols); },
                   c.stream);
  const std::string name =
      "top_k_batched " + std::to_string(rows) + "x" + std::to_string(cols) + " k=" + std::to_string(k);
  const comparison row{name, static_cast<double>(items), 4.0 * items + 8.0 * rows * k, "read n*4 + write rows*k*(4+4)"};
  const auto ours = [&](cudaStream_t s) {
    bkt::top_k_batched<float, index_t>(b.data.span().first(items), rows, k, b.result.span().first(rows * k),
                                       b.indices.span().first(rows * k), c.ws, s, {.largest = true, .sorted = false});
  };
  const auto check = [&](const comparison& r) {
    expect_top_k(b.data.data(), rows, cols, k, b.result.data(), b.indices.data(), b.peer_result.data(),
                 b.peer_indices.data(), false, r.name, c.stream);
    return std::string();
  };

  const auto batched = bkt::bench::topk_peer::batched_max_pairs(batched_storage, b.data.data(), rows, cols, k,
                                                                b.peer_result.data(), b.peer_indices.data(), c.stream);
  std::string sort_note = "vs segmented sort";
  if (!batched.empty()) {
    comparison batched_row = row;
    batched_row.peer_cccl = bkt::bench::topk_peer::cccl_version();
    measure(c, batched_row, batched, ours, check);
  } else if (bkt::bench::topk_peer::cccl_version().empty()) {
    sort_note = "DeviceBatchedTopK peer unavailable; vs segmented sort";
  } else {
    sort_note = "DeviceBatchedTopK takes rows of at most " + std::to_string(bkt::bench::topk_peer::batched_max_row()) +
                "; vs segmented sort";
  }

  // cub::DeviceSegmentedSort: its offset type is its offset iterators' (int or int64_t row offsets).
  const auto offsets32 = row_offsets<int>(rows, cols, c.stream);
  const auto offsets64 = row_offsets<std::int64_t>(rows, cols, c.stream);
  const auto segmented_sort = cub_count_calls(
      cub, "cub::SegSortPairsDesc", items,
      [&](void* t, std::size_t& bytes, cudaStream_t s, auto count) {
        const auto* offsets = [&] {
          if constexpr (sizeof(count) == 4) return offsets32.data();
          else return offsets64.data();
        }();
        return cub::DeviceSegmentedSort::SortPairsDescending(t, bytes, b.data.data(), b.sorted.data(), b.positions.data(),
                                                             b.sorted_positions.data(), items, rows, offsets,
                                                             offsets + 1, s);
      },
      c.stream);
  comparison sort_row = row;
  sort_row.name += " (" + sort_note + ")";
  measure(c, sort_row,
          followed_by(segmented_sort, "+first k",
                      [&](cudaStream_t s) {
                        take_first_k<<<1024, 256, 0, s>>>(b.sorted.data(), b.sorted_positions.data(), rows, cols, k,
                                                          b.peer_result.data(), b.peer_indices.data());
                        BKT_CHECK_LAUNCH(s);
                      }),
          ours, check);
}

void fill_shape(buffers& b, shape s, cudaStream_t stream) { bkt::bench::fill(b.data.data(), b.n, shaped_keys{s, b.n}, stream); }

}  // namespace

int main(int argc, char** argv) {
  return bkt::bench::run_main(
      argc, argv, "select_bench", "Selection and top-k: bucketeer against CUB (sort, DeviceTopK, segmented sort)",
      [](const bkt::bench::options& opts, cudaStream_t stream) {
        const std::int64_t n = std::int64_t{1} << opts.log2_items;
        BKT_EXPECTS(n <= (std::int64_t{1} << 31) - 1, "select_bench: n must fit CUB's int count (--log2-items <= 30)");
        const std::string peer_cccl = bkt::bench::topk_peer::cccl_version();
        if (peer_cccl.empty())
          std::printf("top-k peers: DeviceTopK and DeviceBatchedTopK unavailable (no newer CCCL configured; toolkit "
                      "CCCL %s): SortPairsDescending and the segmented sort instead\n",
                      bkt::bench::toolkit_cccl_version().c_str());
        else
          std::printf("top-k peers: cub::DeviceTopK and cub::DeviceBatchedTopK from CCCL %s; every other peer from the "
                      "toolkit's CCCL %s\n",
                      peer_cccl.c_str(), bkt::bench::toolkit_cccl_version().c_str());
        bkt::bench::report rep("selection f32, n = 2^" + std::to_string(opts.log2_items), opts, stream);
        bkt::workspace ws;  // one workspace and one CUB storage per role for every row, grown in warm-up
        cub_storage sort_storage, topk_storage, small_sort_storage, batched_storage;
        context c{rep, opts, ws, stream};
        const std::int64_t batched_out = std::max<std::int64_t>(n / 4096 * 256, 1 << 20);
        buffers b(n, std::min(n, batched_out), stream);
        bkt::bench::fill(b.positions.data(), n, bkt::bench::positions<index_t>{}, stream);
        const sort_peers sorts(b, sort_storage, stream);
        top_k_peer peer{b, sorts, topk_storage, small_sort_storage, bkt::device_buffer<float>(1 << 20, stream),
                        bkt::device_buffer<index_t>(1 << 20, stream)};

        fill_shape(b, shape::uniform, stream);
        using bkt::detail::select_baseline;
        const double median_ms = bench_select_kth(c, b, sorts, n / 2, "select_kth median", select_baseline::none);
        bench_select_kth(c, b, sorts, n / 100, "select_kth k=n/100", select_baseline::none);
        // The baselines (bkt/detail/select/baselines.hpp): rows marked [name], without a target.
        double sample_select_median_ms = 0;
        for (const auto& [baseline, label] : {std::pair{select_baseline::sample_select, "sample_select"},
                                             std::pair{select_baseline::quickselect, "quickselect"},
                                             std::pair{select_baseline::bucket_select, "bucket_select"},
                                             std::pair{select_baseline::radix_sort, "radix_sort"}}) {
          const double ms = bench_select_kth(c, b, sorts, n / 2, std::string("select_kth median [") + label + "]", baseline);
          if (baseline == select_baseline::sample_select) sample_select_median_ms = ms;
          bench_select_kth(c, b, sorts, n / 100, std::string("select_kth k=n/100 [") + label + "]", baseline);
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
        bench_approx_select(c, b, sorts);
        bench_multiselect(c, b, sorts, "multiselect 1023 quantiles");
        for (const std::int64_t cols : {std::int64_t{65536}, std::int64_t{4096}})
          for (const std::int64_t k : {32, 256})
            if (cols <= n) bench_batched(c, b, sort_storage, batched_storage, cols, k);
        // The batched peer left column numbers in b.positions; the sort-based top_k peer reads positions.
        bkt::bench::fill(b.positions.data(), n, bkt::bench::positions<index_t>{}, stream);
        // Adversarial inputs last: they overwrite the uniform input.
        for (const shape s : adversarial_shapes) {
          fill_shape(b, s, stream);
          const std::string adv = std::string(" adv=") + shape_name(s);
          bench_select_kth(c, b, sorts, n / 2, "select_kth median" + adv, select_baseline::none, median_ms);
          bench_select_kth(c, b, sorts, n / 2, "select_kth median [sample_select]" + adv,
                           select_baseline::sample_select, sample_select_median_ms);
          if (top_k_1024_ms > 0) bench_top_k(c, b, peer, 1024, false, "top_k k=1024 unsorted" + adv, top_k_1024_ms);
          bench_multiselect(c, b, sorts, "multiselect 1023 quantiles" + adv);
        }
        rep.finish();
      });
}
