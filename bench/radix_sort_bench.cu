// Radix sort against CUB's DeviceRadixSort (Onesweep) on 2^28 keys, same data, same process.
//
// Bytes that must move (the limit), for P passes of key_bytes keys and value_bytes values:
//   one counting read of the keys, then per pass a read and a write of every key and value:
//   n * (key_bytes + P * 2 * (key_bytes + value_bytes)). For u32 keys (P = 4): 36 B per key.
// Both sorts are stable, so keys and values must agree with CUB's bit for bit.
// Rows with an explicit digit width measure the choice radix_sort_options::digit_bits = 0 makes.
// The peer is called every way a CUB user can (cub_sort below): the pointer form and the
// DoubleBuffer form (after a timed copy of the input into its first buffer, since that form
// overwrites its input), each with an int and an int64_t count; the row reports the fastest call
// and checks its output. The double-buffer row compares the DoubleBuffer forms of both.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "bkt/device_buffer.hpp"
#include "bkt/memory.hpp"
#include "bkt/radix_sort.hpp"
#include "cub_peer.cuh"
#include "cub_sort_peer.cuh"
#include "harness.hpp"
#include "inputs.cuh"

namespace {

using bkt::bench::compare;
using bkt::bench::comparison;
using bkt::bench::cub_storage;
using bkt::bench::cub_sort;
using bkt::bench::peer_call;

/// Integers uniform below 2^key_bits; floats uniform in (-1, 1), so both signs and many exponents;
/// half floats uniform over their finite bit patterns but -0.0, which CUB sorts as equal to +0.0.
template <class T>
void fill_keys(T* keys, std::int64_t n, int key_bits, cudaStream_t stream) {
  if constexpr (std::is_same_v<T, __half>)
    bkt::bench::fill(keys, n, [] __device__(std::int64_t i) {
      auto bits = static_cast<unsigned short>(bkt::bench::hashed_index(i));
      if ((bits & 0x7c00) == 0x7c00) bits &= 0xbfff;  // inf or NaN: a finite value instead
      return __ushort_as_half(bits == 0x8000 ? static_cast<unsigned short>(0) : bits);
    }, stream);
  else if constexpr (std::is_floating_point_v<T>)
    bkt::bench::fill(keys, n, [] __device__(std::int64_t i) {
      const std::uint64_t h = bkt::bench::hashed_index(i);
      return (static_cast<T>(h >> 40) * static_cast<T>(0x1.0p-23) - T(1)) * static_cast<T>((h & 0xff) + 1) / T(256);
    }, stream);
  else if (key_bits < static_cast<int>(8 * sizeof(T)))
    bkt::bench::fill(keys, n, [key_bits] __device__(std::int64_t i) {
      return static_cast<T>(bkt::bench::hashed_index(i) >> (64 - key_bits));
    }, stream);
  else
    bkt::bench::fill(keys, n, bkt::bench::uniform_keys<T>{}, stream);
}

/// Stops the benchmark when two device arrays differ anywhere.
template <class T>
void expect_equal(const T* ours, const T* peer, std::int64_t n, const std::string& what, cudaStream_t stream) {
  const auto a = bkt::to_host_sync<T>({ours, static_cast<std::size_t>(n)}, stream);
  const auto b = bkt::to_host_sync<T>({peer, static_cast<std::size_t>(n)}, stream);
  if (std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) != 0) {
    std::fprintf(stderr, "MISMATCH %s: the output differs from CUB's\n", what.c_str());
    std::exit(1);
  }
}

double limit_bytes(std::int64_t n, std::size_t key_bytes, std::size_t value_bytes, const bkt::radix_sort_options& o) {
  const int passes = bkt::radix_sort_passes(key_bytes, o);
  return static_cast<double>(n) * static_cast<double>(key_bytes + passes * 2 * (key_bytes + value_bytes));
}

std::string byte_model(std::size_t key_bytes, std::size_t value_bytes, const bkt::radix_sort_options& o) {
  const int passes = bkt::radix_sort_passes(key_bytes, o);
  return "read n*" + std::to_string(key_bytes) + " + " + std::to_string(passes) + " passes x n*2*" +
         std::to_string(key_bytes + value_bytes);
}

template <class Key>
void bench_keys(bkt::bench::report& rep, const bkt::bench::options& opts, std::int64_t n, const char* type,
                bkt::workspace& ws, cub_storage& cub, cudaStream_t stream, int digit_bits = 0,
                bkt::sort_order order = bkt::sort_order::ascending, int key_bits = 8 * sizeof(Key)) {
  bkt::device_buffer<Key> keys(n, stream), out(n, stream), peer_out(n, stream);
  fill_keys<Key>(keys.data(), n, key_bits, stream);
  bkt::radix_sort_options options;
  options.digit_bits = digit_bits;
  options.order = order;
  const bool descending = order == bkt::sort_order::descending;
  std::string name = std::string("sort ") + type + (descending ? " descending" : "");
  if (digit_bits != 0) name += " digit_bits=" + std::to_string(digit_bits);
  if (key_bits < static_cast<int>(8 * sizeof(Key))) name += " below 2^" + std::to_string(key_bits);
  cub_sort<Key> peer(keys.data(), peer_out.data(), nullptr, nullptr, n, 8 * sizeof(Key), descending, stream);
  compare(rep, opts,
          {name, static_cast<double>(n), limit_bytes(n, sizeof(Key), 0, options), byte_model(sizeof(Key), 0, options)},
          peer.calls(cub, descending ? "cub::SortKeysDesc" : "cub::SortKeys", stream),
          [&](cudaStream_t s) { bkt::radix_sort_keys<Key>(keys.span(), out.span(), ws, s, options); },
          [&](const comparison&) { expect_equal(out.data(), peer_out.data(), n, name, stream); }, stream);
}

/// The double-buffer forms of both, which skip the copy back into a separate output.
void bench_double_buffer(bkt::bench::report& rep, const bkt::bench::options& opts, std::int64_t n, bkt::workspace& ws,
                         cub_storage& cub, cudaStream_t stream) {
  bkt::device_buffer<std::uint32_t> keys(n, stream), a(n, stream), b(n, stream), peer_out(n, stream);
  fill_keys<std::uint32_t>(keys.data(), n, 32, stream);
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(std::uint32_t);
  bkt::double_buffer<std::uint32_t> ours{{a.span(), b.span()}, 0};
  // Each timed run sorts a fresh copy: the copy is timed for both, and its bytes are in the limit.
  cub_sort<std::uint32_t> peer(keys.data(), peer_out.data(), nullptr, nullptr, n, 32, false, stream);
  compare(rep, opts,
          {"sort u32 double buffer (+ copy in)", static_cast<double>(n), limit_bytes(n, 4, 0, {}) + 8.0 * n,
           byte_model(4, 0, {}) + " + copy n*8"},
          peer.double_buffer_calls(cub, "cub::SortKeys", stream),
          [&](cudaStream_t s) {
            BKT_CUDA_CHECK(cudaMemcpyAsync(ours.data().data(), keys.data(), bytes, cudaMemcpyDeviceToDevice, s));
            bkt::radix_sort_keys<std::uint32_t>(ours, ws, s);
          },
          [&](const comparison&) { expect_equal(ours.data().data(), peer_out.data(), n, "double buffer", stream); },
          stream);
}

template <class Key, class Value>
void bench_pairs(bkt::bench::report& rep, const bkt::bench::options& opts, std::int64_t n, const char* type,
                 bkt::workspace& ws, cub_storage& cub, cudaStream_t stream) {
  bkt::device_buffer<Key> keys(n, stream), keys_out(n, stream), peer_keys(n, stream);
  bkt::device_buffer<Value> values(n, stream), values_out(n, stream), peer_values(n, stream);
  fill_keys<Key>(keys.data(), n, 8 * sizeof(Key), stream);
  bkt::bench::fill(values.data(), n, bkt::bench::positions<Value>{}, stream);
  const std::string name = std::string("sort pairs ") + type;
  cub_sort<Key, Value> peer(keys.data(), peer_keys.data(), values.data(), peer_values.data(), n, 8 * sizeof(Key), false,
                            stream);
  compare(rep, opts,
          {name, static_cast<double>(n), limit_bytes(n, sizeof(Key), sizeof(Value), {}),
           byte_model(sizeof(Key), sizeof(Value), {})},
          peer.calls(cub, "cub::SortPairs", stream),
          [&](cudaStream_t s) {
            bkt::radix_sort_pairs<Key, Value>(keys.span(), values.span(), keys_out.span(), values_out.span(), ws, s);
          },
          [&](const comparison&) {
            expect_equal(keys_out.data(), peer_keys.data(), n, name + " keys", stream);
            expect_equal(values_out.data(), peer_values.data(), n, name + " values", stream);
          },
          stream);
}

}  // namespace

int main(int argc, char** argv) {
  return bkt::bench::run_main(
      argc, argv, "radix_sort_bench", "Radix sort: bucketeer against CUB DeviceRadixSort",
      [](const bkt::bench::options& opts, cudaStream_t stream) {
        bkt::bench::report rep("radix sort, n = 2^" + std::to_string(opts.log2_items), opts, stream);
        const std::int64_t n = std::int64_t{1} << opts.log2_items;
        bkt::workspace ws;  // one workspace and one CUB storage for every row, grown during warm-up
        cub_storage cub;
        bench_keys<std::uint32_t>(rep, opts, n, "u32", ws, cub, stream);
        bench_pairs<std::uint32_t, std::uint32_t>(rep, opts, n, "u32/u32", ws, cub, stream);
        bench_keys<std::uint64_t>(rep, opts, n, "u64", ws, cub, stream);
        bench_keys<float>(rep, opts, n, "f32", ws, cub, stream);
        bench_keys<__half>(rep, opts, n, "f16", ws, cub, stream);
        bench_pairs<std::uint64_t, std::uint32_t>(rep, opts, n, "u64/u32", ws, cub, stream);
        bench_keys<std::uint32_t>(rep, opts, n, "u32", ws, cub, stream, 0, bkt::sort_order::descending);
        bench_double_buffer(rep, opts, n, ws, cub, stream);
        for (const int bits : {7, 6}) bench_keys<std::uint32_t>(rep, opts, n, "u32", ws, cub, stream, bits);
        // Half the passes over bits no key sets: ours copies there (both sorts still read them).
        bench_keys<std::uint64_t>(rep, opts, n, "u64", ws, cub, stream, 0, bkt::sort_order::ascending, 32);
        rep.finish();
      });
}
