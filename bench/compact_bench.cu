// Compaction against CUB on 2^28 elements (larger than the 50 MB L2), same data, same process.
//
// Bytes that must move (the limit):
//   select_if / partition keys:   read every key once, write every kept key once.
//   select_flagged:               the same plus one read of the 1-byte flags.
//   stable_partition:             read every key, write every key.
//   select_if pairs:              read every key, and for each kept pair read its value and write
//                                 key and value (an algorithm need not read dropped values).
//
// Each CUB peer is called with an int and with an int64_t item count; the row reports the faster.
// Each row checks the last outputs of both: the same kept count, and the same elements bit for bit
// (the kept prefix; for stable_partition the rejected part too, which CUB writes reversed). Any
// difference prints MISMATCH and exits 1.
#include <cub/device/device_partition.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/zip_iterator.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>

#include "bkt/compact.cuh"
#include "bkt/device_buffer.hpp"
#include "bkt/memory.hpp"
#include "cub_peer.cuh"
#include "harness.hpp"
#include "inputs.cuh"

namespace {

using bkt::bench::compare;
using bkt::bench::comparison;
using bkt::bench::cub_count_calls;

template <class T>
struct below {
  T threshold;
  __host__ __device__ bool operator()(const T& x) const { return x < threshold; }
};

struct key_below {
  float threshold;
  template <class Tuple>
  __host__ __device__ bool operator()(const Tuple& t) const { return thrust::get<0>(t) < threshold; }
};

/// Keys uniform in [0, 1) (integers: uniform over their range) from a counter hash, so that
/// `below{p}` keeps a fraction p; also flags = (key < p) and values = index.
template <class T>
__global__ void fill_inputs(T* keys, std::uint32_t* values, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n; i += std::int64_t{gridDim.x} * blockDim.x) {
    const std::uint64_t h = bkt::bench::hashed_index(i);
    if constexpr (std::is_floating_point_v<T>)
      keys[i] = static_cast<T>(static_cast<double>(h >> 11) * 0x1.0p-53);
    else
      keys[i] = static_cast<T>(h >> (64 - 8 * sizeof(T)));
    if (values != nullptr) values[i] = static_cast<std::uint32_t>(i);
  }
}

template <class T>
__global__ void make_flags(const T* keys, std::uint8_t* flags, std::int64_t n, T threshold) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n; i += std::int64_t{gridDim.x} * blockDim.x)
    flags[i] = keys[i] < threshold;
}

/// The kept count both wrote, after checking that they agree and that it lies in [0, n].
std::int64_t expect_same_count(const std::int64_t* ours, const std::int64_t* peer, std::int64_t n, const std::string& what,
                               cudaStream_t s) {
  const auto a = bkt::read_sync(ours, s), b = bkt::read_sync(peer, s);
  if (a != b || a < 0 || a > n) {
    std::fprintf(stderr, "MISMATCH %s: bucketeer kept %lld, peer %lld (of %lld)\n", what.c_str(), (long long)a,
                 (long long)b, (long long)n);
    std::exit(1);
  }
  return a;
}

/// The bits of a 1-, 4- or 8-byte element, as an unsigned integer: comparing them makes -0.0 and
/// +0.0 differ and NaN equal itself, so the check is bit for bit.
template <class T>
__host__ __device__ std::uint64_t bits_of(const T& value) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 4 || sizeof(T) == 8, "1-, 4- or 8-byte elements");
  using word = std::conditional_t<sizeof(T) == 1, std::uint8_t, std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>;
  word w;
  memcpy(&w, &value, sizeof(T));
  return w;
}

/// Counts the i in [0, length) where ours[i] and the peer's element differ in any bit, the peer's
/// being peer[i], or peer[length - 1 - i] when `peer_reversed`; result[1] gets the smallest such i.
template <class T>
__global__ void count_differences(const T* ours, const T* peer, std::int64_t length, bool peer_reversed,
                                  unsigned long long* result) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < length;
       i += std::int64_t{gridDim.x} * blockDim.x) {
    const T& theirs = peer[peer_reversed ? length - 1 - i : i];
    if (bits_of(ours[i]) != bits_of(theirs)) {
      atomicAdd(result, 1ull);
      atomicMin(result + 1, static_cast<unsigned long long>(i));
    }
  }
}

/// Stops the benchmark unless ours[0, length) equals the peer's `length` elements bit for bit
/// (read back to front when `peer_reversed`); `part` names what is compared.
template <class T>
void expect_same_items(const T* ours, const T* peer, std::int64_t length, bool peer_reversed, const std::string& what,
                       const char* part, cudaStream_t stream) {
  if (length == 0) return;
  bkt::device_buffer<unsigned long long> result(2, stream);
  BKT_CUDA_CHECK(cudaMemsetAsync(result.data(), 0, sizeof(unsigned long long), stream));
  BKT_CUDA_CHECK(cudaMemsetAsync(result.data() + 1, 0xff, sizeof(unsigned long long), stream));
  count_differences<T><<<1024, 256, 0, stream>>>(ours, peer, length, peer_reversed, result.data());
  BKT_CHECK_LAUNCH(stream);
  const auto found = bkt::to_host_sync<unsigned long long>({result.data(), 2}, stream);
  if (found[0] == 0) return;
  const auto first = static_cast<std::int64_t>(found[1]);
  const T mine = bkt::read_sync(ours + first, stream);
  const T theirs = bkt::read_sync(peer + (peer_reversed ? length - 1 - first : first), stream);
  std::fprintf(stderr, "MISMATCH %s: %llu of %lld %s differ from the peer's; first at %lld: bucketeer 0x%llx, peer 0x%llx\n",
               what.c_str(), found[0], static_cast<long long>(length), part, static_cast<long long>(first),
               static_cast<unsigned long long>(bits_of(mine)), static_cast<unsigned long long>(bits_of(theirs)));
  std::exit(1);
}

/// A row's check: ours wrote counts[0], the peer counts[1]; both must keep as many of the n
/// elements, then `same_items(row name, kept)` compares what they wrote.
std::function<void(const comparison&)> same_output(const std::int64_t* counts, std::int64_t n, cudaStream_t stream,
                                                   std::function<void(const std::string&, std::int64_t)> same_items) {
  return [=](const comparison& row) { same_items(row.name, expect_same_count(counts, counts + 1, n, row.name, stream)); };
}

template <class T>
void bench_keys(bkt::bench::report& rep, const bkt::bench::options& opts, std::int64_t n, const char* type,
                std::initializer_list<int> percents, cudaStream_t stream) {
  bkt::device_buffer<T> keys(n, stream), out(n, stream), peer_out(n, stream);
  bkt::device_buffer<std::uint8_t> flags(n, stream);
  bkt::device_buffer<T> rejected(n, stream);  // second output of the two-output partition
  bkt::device_buffer<std::int64_t> counts(2, stream);
  fill_inputs<T><<<1024, 256, 0, stream>>>(keys.data(), nullptr, n);
  BKT_CHECK_LAUNCH(stream);
  bkt::workspace ws;
  bkt::bench::cub_storage cub;
  const double e = static_cast<double>(n);
  for (const int percent : percents) {
    const T threshold = std::is_floating_point_v<T> ? T(percent / 100.0)
                                                    : static_cast<T>(std::numeric_limits<T>::max() / 100.0 * percent);
    const below<T> pred{threshold};
    const double kept = e * percent / 100.0;
    const std::string keep = " keep=" + std::to_string(percent) + "%";

    const std::string size = std::to_string(sizeof(T));
    // select_if and select_flagged: the kept elements, in input order, as CUB's DeviceSelect.
    const auto same_kept = [&] {
      return same_output(counts.data(), n, stream, [&](const std::string& what, std::int64_t kept) {
        expect_same_items(out.data(), peer_out.data(), kept, false, what, "kept elements", stream);
      });
    };
    // stable_partition against CUB's one-output DevicePartition::If: the same kept prefix; CUB
    // writes the rejected elements in reverse input order, ours in input order (to `rejected`
    // with two outputs, else after the kept ones).
    const auto same_partition = [&](bool two_outputs) {
      return same_output(counts.data(), n, stream, [&, two_outputs](const std::string& what, std::int64_t kept) {
        expect_same_items(out.data(), peer_out.data(), kept, false, what, "kept elements", stream);
        expect_same_items(two_outputs ? rejected.data() : out.data() + kept, peer_out.data() + kept, n - kept, true, what,
                          "rejected elements", stream);
      });
    };
    const auto cub_select = cub_count_calls(
        cub, "cub::If", n,
        [&](void* t, std::size_t& b, cudaStream_t s, auto count) {
          return cub::DeviceSelect::If(t, b, keys.data(), peer_out.data(), counts.data() + 1, count, pred, s);
        },
        stream);
    compare(rep, opts, {std::string("select_if ") + type + keep, e, e * sizeof(T) + kept * sizeof(T),
                        "read n*" + size + " + write kept*" + size},
            cub_select, [&](cudaStream_t s) { bkt::select_if<T>(keys.span(), out.span(), counts.data(), pred, ws, s); },
            same_kept(), stream);
    if (percent != 50) continue;

    make_flags<T><<<1024, 256, 0, stream>>>(keys.data(), flags.data(), n, threshold);
    BKT_CHECK_LAUNCH(stream);
    compare(rep, opts, {std::string("select_flagged ") + type + keep, e, e * (sizeof(T) + 1) + kept * sizeof(T),
                        "read n*" + std::to_string(sizeof(T) + 1) + " + write kept*" + size},
            cub_count_calls(
                cub, "cub::Flagged", n,
                [&](void* t, std::size_t& b, cudaStream_t s, auto count) {
                  return cub::DeviceSelect::Flagged(t, b, keys.data(), flags.data(), peer_out.data(), counts.data() + 1,
                                                    count, s);
                },
                stream),
            [&](cudaStream_t s) {
              bkt::select_flagged<T, std::uint8_t>(keys.span(), flags.span(), out.span(), counts.data(), ws, s);
            },
            same_kept(), stream);

    const auto cub_partition = cub_count_calls(
        cub, "cub::Part.If", n,
        [&](void* t, std::size_t& b, cudaStream_t s, auto count) {
          return cub::DevicePartition::If(t, b, keys.data(), peer_out.data(), counts.data() + 1, count, pred, s);
        },
        stream);
    const std::string partition_bytes = "read n*" + size + " + write n*" + size + " (cub's rejected part is reversed, not stable)";
    compare(rep, opts, {std::string("stable_partition ") + type + keep, e, 2 * e * sizeof(T), partition_bytes},
            cub_partition,
            [&](cudaStream_t s) { bkt::stable_partition<T>(keys.span(), out.span(), counts.data(), pred, ws, s); },
            same_partition(false), stream);
    compare(rep, opts, {std::string("stable_partition 2 outputs ") + type + keep, e, 2 * e * sizeof(T), partition_bytes},
            cub_partition,
            [&](cudaStream_t s) {
              bkt::stable_partition<T>(keys.span(), out.span(), rejected.span(), counts.data(), pred, ws, s);
            },
            same_partition(true), stream);
  }
}

void bench_pairs(bkt::bench::report& rep, const bkt::bench::options& opts, std::int64_t n, cudaStream_t stream) {
  bkt::device_buffer<float> keys(n, stream), keys_out(n, stream), peer_keys(n, stream);
  bkt::device_buffer<std::uint32_t> values(n, stream), values_out(n, stream), peer_values(n, stream);
  bkt::device_buffer<std::int64_t> counts(2, stream);
  fill_inputs<float><<<1024, 256, 0, stream>>>(keys.data(), values.data(), n);
  BKT_CHECK_LAUNCH(stream);
  bkt::workspace ws;
  bkt::bench::cub_storage cub;
  const double e = static_cast<double>(n);
  for (const int percent : {1, 50, 99}) {
    const float threshold = percent / 100.0f;
    const double kept = e * percent / 100.0;
    auto in = thrust::make_zip_iterator(keys.data(), values.data());
    auto out = thrust::make_zip_iterator(peer_keys.data(), peer_values.data());
    compare(rep, opts, {"select_if f32/u32 pairs keep=" + std::to_string(percent) + "%", e, e * 4 + kept * 12,
                        "read n*4 keys + kept*(4 value read + 8 written)"},
            cub_count_calls(
                cub, "cub::If zip", n,
                [&, in, out, threshold](void* t, std::size_t& b, cudaStream_t s, auto count) {
                  return cub::DeviceSelect::If(t, b, in, out, counts.data() + 1, count, key_below{threshold}, s);
                },
                stream),
            [&](cudaStream_t s) {
              bkt::select_if<float, std::uint32_t>(keys.span(), values.span(), keys_out.span(), values_out.span(),
                                                   counts.data(), below<float>{threshold}, ws, s);
            },
            same_output(counts.data(), n, stream,
                        [&](const std::string& what, std::int64_t kept) {
                          expect_same_items(keys_out.data(), peer_keys.data(), kept, false, what, "kept keys", stream);
                          expect_same_items(values_out.data(), peer_values.data(), kept, false, what, "kept values",
                                            stream);
                        }),
            stream);
  }
}

}  // namespace

int main(int argc, char** argv) {
  return bkt::bench::run_main(argc, argv, "compact_bench", "Compaction: bucketeer against CUB",
                              [](const bkt::bench::options& opts, cudaStream_t stream) {
                                bkt::bench::report rep("compaction, n = 2^" + std::to_string(opts.log2_items), opts,
                                                       stream);
                                const std::int64_t n = std::int64_t{1} << opts.log2_items;
                                bench_keys<float>(rep, opts, n, "f32", {1, 50, 99}, stream);
                                bench_pairs(rep, opts, n, stream);
                                bench_keys<std::uint8_t>(rep, opts, n, "u8", {50}, stream);
                                bench_keys<double>(rep, opts, n / 2, "f64", {50}, stream);
                                rep.finish();
                              });
}
