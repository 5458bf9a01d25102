// Probe for the radix sort's digit width (docs/primitives/radix-sort.md): what one scatter pass costs in
// memory traffic as its digit widens from 8 to 12 bits. A u32 sort in three 11-bit passes moves 3/4
// of the bytes of four 8-bit passes; this measures whether the wider pass's scattered writes (a
// tile's keys fall into 2048 runs instead of 256) and its larger per-tile offsets eat that gain.
//
// The probe pass is the memory side of an Onesweep-style pass without its ranking and look-back:
// every tile's global offsets per digit are computed beforehand (untimed: a count kernel and a
// scan), so the timed kernel loads a tile, ranks its keys with shared-memory atomics (not stable,
// but the addresses a tile writes are those of the stable pass), stages them in shared memory in
// digit order, reads its 2^bits offsets and writes each digit's run out. A real pass adds a stable
// ranking and the look-back's waits; the upfront count of every pass's digits is one more read.
//
// Built by scripts/digit-width-probe.sh (not part of the product's benchmarks). Peer row: CUB's
// SortKeys on the low 8 bits (its digit count and one 8-bit pass), the same for every row.
#include <cub/block/block_scan.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "bkt/device_buffer.hpp"
#include "bkt/error.hpp"
#include "cub_peer.cuh"
#include "harness.hpp"
#include "inputs.cuh"

namespace {

constexpr int probe_threads = 512;

template <int Bits>
__device__ __forceinline__ std::uint32_t digit_of(std::uint32_t key) {
  return key & ((1u << Bits) - 1);
}

/// counts[d * tiles + tile]: keys of digit d in the tile (digit-major, so that one exclusive scan
/// of the whole array gives every tile's stable global offset per digit).
template <int Bits, int Items>
__global__ void __launch_bounds__(probe_threads) tile_counts_kernel(const std::uint32_t* keys, std::int64_t tiles,
                                                                    std::uint32_t* counts) {
  constexpr int buckets = 1 << Bits;
  constexpr int tile_keys = probe_threads * Items;
  __shared__ std::uint32_t histogram[buckets];
  for (int b = threadIdx.x; b < buckets; b += probe_threads) histogram[b] = 0;
  __syncthreads();
  const std::int64_t tile = blockIdx.x;
  for (int j = 0; j < Items; ++j)
    atomicAdd(&histogram[digit_of<Bits>(keys[tile * tile_keys + j * probe_threads + threadIdx.x])], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < buckets; b += probe_threads) counts[b * tiles + tile] = histogram[b];
}

/// The timed pass. Dynamic shared memory: the staged tile, then one word a digit (its start in the
/// tile, then its global base less that start).
template <int Bits, int Items>
__global__ void __launch_bounds__(probe_threads) scatter_probe_kernel(const std::uint32_t* keys, std::uint32_t* out,
                                                                      const std::uint32_t* offsets, std::int64_t tiles) {
  constexpr int buckets = 1 << Bits;
  constexpr int tile_keys = probe_threads * Items;
  constexpr int per_thread = (buckets + probe_threads - 1) / probe_threads;
  using block_scan = cub::BlockScan<std::uint32_t, probe_threads>;
  __shared__ typename block_scan::TempStorage scan_storage;
  extern __shared__ std::uint32_t shared[];
  std::uint32_t* staged = shared;
  std::uint32_t* digit_word = shared + tile_keys;
  const std::int64_t tile = blockIdx.x;
  for (int b = threadIdx.x; b < buckets; b += probe_threads) digit_word[b] = 0;
  __syncthreads();
  std::uint32_t key[Items], rank[Items];
#pragma unroll
  for (int j = 0; j < Items; ++j) {
    key[j] = keys[tile * tile_keys + j * probe_threads + threadIdx.x];
    rank[j] = atomicAdd(&digit_word[digit_of<Bits>(key[j])], 1u);
  }
  __syncthreads();
  std::uint32_t count[per_thread];
#pragma unroll
  for (int i = 0; i < per_thread; ++i) {
    const int b = threadIdx.x * per_thread + i;
    count[i] = b < buckets ? digit_word[b] : 0;
  }
  block_scan(scan_storage).ExclusiveSum(count, count);
  __syncthreads();
#pragma unroll
  for (int i = 0; i < per_thread; ++i) {
    const int b = threadIdx.x * per_thread + i;
    if (b < buckets) digit_word[b] = count[i];
  }
  __syncthreads();
#pragma unroll
  for (int j = 0; j < Items; ++j) staged[digit_word[digit_of<Bits>(key[j])] + rank[j]] = key[j];
  __syncthreads();
  for (int b = threadIdx.x; b < buckets; b += probe_threads) digit_word[b] = offsets[b * tiles + tile] - digit_word[b];
  __syncthreads();
#pragma unroll
  for (int j = 0; j < Items; ++j) {
    const int i = j * probe_threads + threadIdx.x;
    const std::uint32_t k = staged[i];
    out[digit_word[digit_of<Bits>(k)] + i] = k;
  }
}

/// Whether out holds the keys of in (same sum) with their low `bits` bits ascending.
bool digits_ascend(const bkt::device_buffer<std::uint32_t>& in, const bkt::device_buffer<std::uint32_t>& out, int bits,
                   cudaStream_t stream) {
  const std::int64_t n = in.size();
  std::vector<std::uint32_t> a(n), b(n);
  BKT_CUDA_CHECK(cudaMemcpyAsync(a.data(), in.data(), in.size_bytes(), cudaMemcpyDeviceToHost, stream));
  BKT_CUDA_CHECK(cudaMemcpyAsync(b.data(), out.data(), out.size_bytes(), cudaMemcpyDeviceToHost, stream));
  BKT_CUDA_CHECK(cudaStreamSynchronize(stream));
  std::uint64_t sum_a = 0, sum_b = 0;
  const std::uint32_t mask = (1u << bits) - 1;
  bool ascending = true;
  for (std::int64_t i = 0; i < n; ++i) {
    sum_a += a[i];
    sum_b += b[i];
    if (i > 0 && (b[i - 1] & mask) > (b[i] & mask)) ascending = false;
  }
  return ascending && sum_a == sum_b;
}

template <int Bits, int Items>
void probe(bkt::bench::report& rep, const bkt::bench::options& opts, const bkt::device_buffer<std::uint32_t>& keys,
           bkt::device_buffer<std::uint32_t>& out, const bkt::bench::timing& peer_time, cudaStream_t stream) {
  constexpr int tile_keys = probe_threads * Items;
  const std::int64_t n = keys.size();
  BKT_EXPECTS(n % tile_keys == 0, "digit_width_probe: the key count must be a multiple of the tile");
  const std::int64_t tiles = n / tile_keys;
  bkt::device_buffer<std::uint32_t> offsets((std::int64_t{1} << Bits) * tiles, stream);
  tile_counts_kernel<Bits, Items><<<static_cast<unsigned>(tiles), probe_threads, 0, stream>>>(keys.data(), tiles, offsets.data());
  BKT_CHECK_LAUNCH(stream);
  bkt::bench::cub_storage scan_storage;
  scan_storage.prepare(
      [&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return cub::DeviceScan::ExclusiveSum(temp, bytes, offsets.data(), offsets.data(), offsets.size(), s);
      },
      stream)(stream);
  const int shared_bytes = (tile_keys + (1 << Bits)) * static_cast<int>(sizeof(std::uint32_t));
  BKT_CUDA_CHECK(cudaFuncSetAttribute(scatter_probe_kernel<Bits, Items>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      shared_bytes));
  BKT_CUDA_CHECK(cudaMemsetAsync(out.data(), 0xff, out.size_bytes(), stream));
  const auto pass = [&](cudaStream_t s) {
    scatter_probe_kernel<Bits, Items><<<static_cast<unsigned>(tiles), probe_threads, shared_bytes, s>>>(keys.data(), out.data(), offsets.data(),
                                                                                  tiles);
    BKT_CHECK_LAUNCH(s);
  };
  bkt::bench::comparison row;
  row.name = "probe pass " + std::to_string(Bits) + " bits, tile " + std::to_string(tile_keys);
  row.elements = static_cast<double>(n);
  row.limit_bytes = 8.0 * static_cast<double>(n);
  row.byte_model = "each key read once and written once";
  row.ours = bkt::bench::time_it(pass, stream, opts.repeats);
  if (!digits_ascend(keys, out, Bits, stream)) {
    std::fprintf(stderr, "digit_width_probe: %s: output is not the keys in digit order\n", row.name.c_str());
    std::exit(1);
  }
  row.peer_name = "cub 8-bit sort";
  row.peer = peer_time;
  rep.add(row);
}

}  // namespace

int main(int argc, char** argv) {
  return bkt::bench::run_main(argc, argv, "digit_width_probe", "Radix pass memory cost by digit width", [](const bkt::bench::options& opts,
                                                                                                            cudaStream_t stream) {
    bkt::bench::report rep("radix pass by digit width (probe: no stable ranking, no look-back)", opts, stream);
    const std::int64_t n = std::int64_t{1} << opts.log2_items;
    bkt::device_buffer<std::uint32_t> keys(n, stream), out(n, stream), peer_out(n, stream);
    bkt::bench::fill(keys.data(), n, bkt::bench::uniform_keys<std::uint32_t>{}, stream);
    bkt::bench::cub_storage cub;
    // CUB's one 8-bit pass, called with an int and an int64_t count: the faster is the reference.
    const auto peer = bkt::bench::cub_count_calls(
        cub, "cub::SortKeys", n,
        [&](void* temp, std::size_t& bytes, cudaStream_t s, auto count) {
          return cub::DeviceRadixSort::SortKeys(temp, bytes, keys.data(), peer_out.data(), count, 0, 8, s);
        },
        stream);
    bkt::bench::timing peer_time;
    for (const auto& call : peer) {
      const bkt::bench::timing t = bkt::bench::time_it(call.work, stream, opts.repeats);
      if (peer_time.median_ms == 0 || t.median_ms < peer_time.median_ms) peer_time = t;
    }
    probe<8, 8>(rep, opts, keys, out, peer_time, stream);
    probe<8, 16>(rep, opts, keys, out, peer_time, stream);
    probe<8, 32>(rep, opts, keys, out, peer_time, stream);
    probe<10, 16>(rep, opts, keys, out, peer_time, stream);
    probe<10, 32>(rep, opts, keys, out, peer_time, stream);
    probe<11, 8>(rep, opts, keys, out, peer_time, stream);
    probe<11, 16>(rep, opts, keys, out, peer_time, stream);
    probe<11, 32>(rep, opts, keys, out, peer_time, stream);
    probe<12, 16>(rep, opts, keys, out, peer_time, stream);
    probe<12, 32>(rep, opts, keys, out, peer_time, stream);
    rep.finish();
  });
}
