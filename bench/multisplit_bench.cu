// Multisplit against CUB on 2^28 keys (larger than the 50 MB L2), same data, same process.
//
// Bytes that must move (the limit); the num_buckets + 1 offsets are negligible:
//   keys:   read every key once, write every key once: 8 B per u32 or f32 key, 16 B per u64 key.
//   pairs:  read and write every key and every value: 16 B per u32/u32 pair.
//
// Peers:
//   bit_range_buckets{0, bits} is one stable LSD radix pass, so the peer is cub::DeviceRadixSort
//   on bits [0, bits): SortKeys for keys, SortPairs for pairs. The outputs must agree bit for bit.
//   delta_buckets and splitter_buckets: what a CUB user would write: DeviceTransform computes uint8
//   bucket ids (with the same functor), then SortPairs sorts the ids as keys and carries the keys
//   as values, on bits [0, log2 m). Its values must equal our keys. It returns no offsets.
// Each sort is called every way a CUB user can (bench/cub_sort_peer.cuh: pointer and DoubleBuffer
// forms, int and int64_t counts, DeviceTransform with the sort's count type); the row reports the
// fastest call and checks its output.
// Every row also checks our offsets: each output key lies in [offsets[b], offsets[b + 1]) of its
// bucket b, offsets ascend, offsets[0] = 0 and offsets[m] = n.
#include <cub/device/device_transform.cuh>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "bkt/device_buffer.hpp"
#include "bkt/memory.hpp"
#include "bkt/multisplit.cuh"
#include "cub_peer.cuh"
#include "cub_sort_peer.cuh"
#include "harness.hpp"
#include "inputs.cuh"

namespace {

using bkt::bench::compare;
using bkt::bench::comparison;
using bkt::bench::cub_sort;
using bkt::bench::cub_storage;

/// Keys uniform over the integers' range or, for floats, in [0, scale); values = index when asked.
template <class T>
void fill_inputs(T* keys, std::uint32_t* values, std::int64_t n, T scale, cudaStream_t stream) {
  if constexpr (std::is_floating_point_v<T>)
    bkt::bench::fill(keys, n, [scale] __device__(std::int64_t i) { return bkt::bench::uniform_key<T>(i) * scale; }, stream);
  else
    bkt::bench::fill(keys, n, bkt::bench::uniform_keys<T>{}, stream);
  if (values != nullptr) bkt::bench::fill(values, n, bkt::bench::positions<std::uint32_t>{}, stream);
}

template <class T>
__device__ bool same_bits(const T& a, const T& b) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "4- or 8-byte keys");
  using word = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  word x, y;
  std::memcpy(&x, &a, sizeof(T));
  std::memcpy(&y, &b, sizeof(T));
  return x == y;
}

/// Counts the positions where our keys (or values) differ from the peer's, or where our key lies
/// outside its bucket's offsets, and the offsets that do not ascend from 0 to n.
template <class Key, class BucketFn>
__global__ void count_errors(const Key* ours, const Key* peer, const std::uint32_t* our_values,
                             const std::uint32_t* peer_values, const std::int64_t* offsets, std::int64_t n,
                             int num_buckets, BucketFn bucket_of, unsigned long long* errors) {
  const std::int64_t first = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x;
  if (first == 0 && (offsets[0] != 0 || offsets[num_buckets] != n)) atomicAdd(errors, 1ull);
  for (std::int64_t i = first; i < n; i += std::int64_t{gridDim.x} * blockDim.x) {
    const Key key = ours[i];
    int b = bucket_of(key);
    b = b < 0 || b >= num_buckets ? num_buckets - 1 : b;  // multisplit's clamp
    bool wrong = !same_bits(key, peer[i]) || i < offsets[b] || i >= offsets[b + 1];
    if (our_values != nullptr) wrong = wrong || our_values[i] != peer_values[i];
    if (i < num_buckets) wrong = wrong || offsets[i] > offsets[i + 1];
    if (wrong) atomicAdd(errors, 1ull);
  }
}

/// Stops the benchmark when our last output disagrees with the peer's (values may be null).
template <class Key, class BucketFn>
void expect_agreement(const Key* ours, const Key* peer, const std::uint32_t* our_values,
                      const std::uint32_t* peer_values, const std::int64_t* offsets, std::int64_t n, int num_buckets,
                      BucketFn bucket_of, const std::string& what, cudaStream_t stream) {
  bkt::device_buffer<unsigned long long> errors(1, stream);
  BKT_CUDA_CHECK(cudaMemsetAsync(errors.data(), 0, sizeof(unsigned long long), stream));
  count_errors<<<1024, 256, 0, stream>>>(ours, peer, our_values, peer_values, offsets, n, num_buckets, bucket_of,
                                         errors.data());
  BKT_CHECK_LAUNCH(stream);
  if (const unsigned long long wrong = bkt::read_sync(errors.data(), stream); wrong != 0) {
    std::fprintf(stderr, "MISMATCH %s: %llu positions differ from the peer or lie outside their bucket\n",
                 what.c_str(), wrong);
    std::exit(1);
  }
}

/// Keys alone, bucket = the low `bits` bits, against one CUB radix pass over those bits.
template <class Key>
void bench_bit_range_keys(bkt::bench::report& rep, const bkt::bench::options& opts, std::int64_t n, const char* type,
                          std::initializer_list<int> bit_counts, bkt::workspace& ws, cub_storage& cub,
                          cudaStream_t stream) {
  bkt::device_buffer<Key> keys(n, stream), out(n, stream), peer_out(n, stream);
  bkt::device_buffer<std::int64_t> offsets(bkt::multisplit_single_pass_buckets + 1, stream);
  fill_inputs<Key>(keys.data(), nullptr, n, Key{}, stream);
  const double e = static_cast<double>(n);
  const std::string size = std::to_string(sizeof(Key));
  for (const int bits : bit_counts) {
    const bkt::bit_range_buckets<Key> bucket_of{0, bits};
    const int m = bucket_of.num_buckets();
    const std::string name = std::string("multisplit ") + type + " m=" + std::to_string(m);
    cub_sort<Key> peer(keys.data(), peer_out.data(), nullptr, nullptr, n, bits, false, stream);
    compare(rep, opts, {name, e, 2 * e * sizeof(Key), "read n*" + size + " + write n*" + size},
            peer.calls(cub, "cub::Sort", stream),
            [&](cudaStream_t s) { bkt::multisplit<Key>(keys.span(), out.span(), offsets.span(), m, bucket_of, ws, s); },
            [&](const comparison&) {
              expect_agreement<Key>(out.data(), peer_out.data(), nullptr, nullptr, offsets.data(), n, m, bucket_of,
                                    name, stream);
            },
            stream);
  }
}

/// u32 keys with u32 values (the index), bucket = the low `bits` bits, against CUB SortPairs.
void bench_bit_range_pairs(bkt::bench::report& rep, const bkt::bench::options& opts, std::int64_t n,
                           std::initializer_list<int> bit_counts, bkt::workspace& ws, cub_storage& cub,
                           cudaStream_t stream) {
  bkt::device_buffer<std::uint32_t> keys(n, stream), keys_out(n, stream), peer_keys(n, stream);
  bkt::device_buffer<std::uint32_t> values(n, stream), values_out(n, stream), peer_values(n, stream);
  bkt::device_buffer<std::int64_t> offsets(bkt::multisplit_single_pass_buckets + 1, stream);
  fill_inputs<std::uint32_t>(keys.data(), values.data(), n, 0u, stream);
  const double e = static_cast<double>(n);
  for (const int bits : bit_counts) {
    const bkt::bit_range_buckets<std::uint32_t> bucket_of{0, bits};
    const int m = bucket_of.num_buckets();
    const std::string name = "pairs u32/u32 m=" + std::to_string(m);
    cub_sort<std::uint32_t, std::uint32_t> peer(keys.data(), peer_keys.data(), values.data(), peer_values.data(), n,
                                                bits, false, stream);
    compare(rep, opts, {name, e, 16 * e, "read n*(4 key + 4 value) + write n*(4 + 4)"},
            peer.calls(cub, "cub::SortKV", stream),
            [&](cudaStream_t s) {
              bkt::multisplit<std::uint32_t, std::uint32_t>(keys.span(), values.span(), keys_out.span(),
                                                            values_out.span(), offsets.span(), m, bucket_of, ws, s);
            },
            [&](const comparison&) {
              expect_agreement<std::uint32_t>(keys_out.data(), peer_keys.data(), values_out.data(), peer_values.data(),
                                              offsets.data(), n, m, bucket_of, name, stream);
            },
            stream);
  }
}

/// The bucket id of a key as one byte: the peer's transform step.
template <class Key, class BucketFn>
struct bucket_id_of {
  BucketFn bucket_of;
  __host__ __device__ std::uint8_t operator()(const Key& key) const { return static_cast<std::uint8_t>(bucket_of(key)); }
};

/// Keys split by a computed bucket (delta, splitters; m <= 256), against what a CUB user would
/// write: a transform to uint8 bucket ids, then SortPairs(ids, keys) on bits [0, log2 m).
template <class Key, class BucketFn>
void bench_computed_buckets(bkt::bench::report& rep, const bkt::bench::options& opts, const std::string& name,
                            const bkt::device_buffer<Key>& keys, BucketFn bucket_of, bkt::workspace& ws,
                            cub_storage& cub, cudaStream_t stream) {
  const std::int64_t n = keys.size();
  const int m = bucket_of.num_buckets();
  int bits = 0;
  while ((1 << bits) < m) ++bits;
  bkt::device_buffer<Key> out(n, stream), peer_out(n, stream);
  bkt::device_buffer<std::uint8_t> ids(n, stream), sorted_ids(n, stream);
  bkt::device_buffer<std::int64_t> offsets(m + 1, stream);
  const double e = static_cast<double>(n);
  const std::string size = std::to_string(sizeof(Key));
  // The transform passes the sort's count type too.
  const auto transform = [&](cudaStream_t s, bool wide_count) {
    const bucket_id_of<Key, BucketFn> op{bucket_of};
    BKT_CUDA_CHECK(wide_count ? cub::DeviceTransform::Transform(keys.data(), ids.data(), n, op, s)
                              : cub::DeviceTransform::Transform(keys.data(), ids.data(), static_cast<int>(n), op, s));
  };
  cub_sort<std::uint8_t, Key> peer(ids.data(), sorted_ids.data(), keys.data(), peer_out.data(), n, bits, false, stream,
                                   transform);
  compare(rep, opts, {name, e, 2 * e * sizeof(Key), "read n*" + size + " + write n*" + size},
          peer.calls(cub, "cub::Tf+Sort", stream),
          [&](cudaStream_t s) { bkt::multisplit<Key>(keys.span(), out.span(), offsets.span(), m, bucket_of, ws, s); },
          [&](const comparison&) {
            expect_agreement<Key>(out.data(), peer_out.data(), nullptr, nullptr, offsets.data(), n, m, bucket_of, name,
                                  stream);
          },
          stream);
}

void bench_delta(bkt::bench::report& rep, const bkt::bench::options& opts, std::int64_t n, bkt::workspace& ws,
                 cub_storage& cub, cudaStream_t stream) {
  constexpr int m = 64;
  {
    bkt::device_buffer<float> keys(n, stream);
    fill_inputs<float>(keys.data(), nullptr, n, 1000.0f, stream);
    bench_computed_buckets(rep, opts, "delta f32 m=64", keys, bkt::delta_buckets<float>{0.0f, 1000.0f / m, m}, ws,
                           cub, stream);
  }
  bkt::device_buffer<std::uint32_t> keys(n, stream);
  fill_inputs<std::uint32_t>(keys.data(), nullptr, n, 0u, stream);
  bench_computed_buckets(rep, opts, "delta u32 m=64", keys,
                         bkt::delta_buckets<std::uint32_t>{0u, (std::uint64_t{1} << 32) / m, m}, ws, cub, stream);
}

/// f32 keys in [0, 1) split by 255 distinct sorted random splitters in [0, 1) (256 buckets).
void bench_splitters(bkt::bench::report& rep, const bkt::bench::options& opts, std::int64_t n, bkt::workspace& ws,
                     cub_storage& cub, cudaStream_t stream) {
  constexpr int num_splitters = 255;
  std::mt19937_64 random(2024);
  std::set<float> distinct;
  while (distinct.size() < num_splitters)
    distinct.insert(static_cast<float>(random() >> 40) * 0x1.0p-24f);  // already sorted by the set
  const std::vector<float> host_splitters(distinct.begin(), distinct.end());
  const bkt::device_buffer<float> splitters = bkt::to_device<float>(host_splitters, stream);
  bkt::device_buffer<float> keys(n, stream);
  fill_inputs<float>(keys.data(), nullptr, n, 1.0f, stream);
  bench_computed_buckets(rep, opts, "splitter f32 m=256", keys,
                         bkt::splitter_buckets<float>{splitters.data(), num_splitters}, ws, cub, stream);
}

}  // namespace

int main(int argc, char** argv) {
  return bkt::bench::run_main(
      argc, argv, "multisplit_bench", "Multisplit: bucketeer against CUB radix sort",
      [](const bkt::bench::options& opts, cudaStream_t stream) {
        bkt::bench::report rep("multisplit, n = 2^" + std::to_string(opts.log2_items), opts, stream);
        const std::int64_t n = std::int64_t{1} << opts.log2_items;
        bkt::workspace ws;  // one workspace and one CUB storage for every row, grown during warm-up
        cub_storage cub;
        bench_bit_range_keys<std::uint32_t>(rep, opts, n, "u32", {1, 3, 5, 8}, ws, cub, stream);
        bench_bit_range_pairs(rep, opts, n, {1, 3, 5, 8}, ws, cub, stream);
        bench_delta(rep, opts, n, ws, cub, stream);
        bench_splitters(rep, opts, n, ws, cub, stream);
        bench_bit_range_keys<std::uint64_t>(rep, opts, n / 2, "u64", {8}, ws, cub, stream);
        rep.finish();
      });
}
