// Tuning run for the multisplit scatter pass (scripts/tune-scatter.sh builds this file once per
// variant of the BKT_MULTISPLIT_* macros). It calls the detail-level sort directly and compiles
// its own copy of the pass plan (core/src/radix_sort/plan.cpp), so that every tile size in the
// binary comes from this build's macros and none from the library's.
//
// Rows: one pass by the low 1 or 8 bits (a multisplit with m = 2 or 256 after the digit count),
// keys and key-value pairs, and the full u32 and u64 sorts (u32 values); each against the same CUB
// radix sort.
#include <cub/device/device_radix_sort.cuh>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>

#include "bkt/detail/radix_sort/dispatch.cuh"
#include "bkt/device_buffer.hpp"
#include "bkt/memory.hpp"
#include "bkt/radix_sort.hpp"
#include "cub_peer.cuh"
#include "harness.hpp"
#include "inputs.cuh"

namespace {

using bkt::bench::cub_count_calls;
using bkt::bench::cub_storage;
namespace radix = bkt::detail::radix_sort;

/// The rows of one key type, u32 values beside it for the pairs: a pass or sort by the low `bits`
/// bits for each of `bit_counts`, keys and pairs (no pairs row for one bit), each against the same
/// CUB radix sort and checked against it.
template <class Key>
void key_rows(bkt::bench::report& rep, const bkt::bench::options& opts, cudaStream_t stream,
              std::initializer_list<int> bit_counts) {
  const std::int64_t n = std::int64_t{1} << opts.log2_items;
  bkt::device_buffer<Key> keys(n, stream), keys_out(n, stream), peer_keys(n, stream);
  bkt::device_buffer<std::uint32_t> values(n, stream), values_out(n, stream), peer_values(n, stream);
  bkt::bench::fill(keys.data(), n, bkt::bench::uniform_keys<Key>{}, stream);
  bkt::bench::fill(values.data(), n, bkt::bench::positions<std::uint32_t>{}, stream);
  bkt::workspace ws;
  cub_storage cub;
  const double e = static_cast<double>(n);
  const std::string type = sizeof(Key) == 8 ? "u64 " : "";
  for (const int bits : bit_counts) {
    for (const bool pairs : {false, true}) {
      if (bits == 1 && pairs) continue;
      bkt::radix_sort_options options;
      options.end_bit = bits;
      const int passes = bkt::radix_sort_passes(sizeof(Key), options);
      const std::string name = type + (pairs ? "pairs" : "keys") + " bits=" + std::to_string(bits);
      const auto peer = cub_count_calls(
          cub, "cub", n,
          [&, bits, pairs](void* t, std::size_t& b, cudaStream_t s, auto count) {
            return pairs ? cub::DeviceRadixSort::SortPairs(t, b, keys.data(), peer_keys.data(), values.data(),
                                                           peer_values.data(), count, 0, bits, s)
                         : cub::DeviceRadixSort::SortKeys(t, b, keys.data(), peer_keys.data(), count, 0, bits, s);
          },
          stream);
      const double element_bytes = sizeof(Key) + (pairs ? sizeof(std::uint32_t) : 0);
      const double bytes = e * (sizeof(Key) + passes * 2 * element_bytes);
      bkt::bench::compare(
          rep, opts, {name, e, bytes, "count read + passes x read/write"}, peer,
          [&, options, pairs](cudaStream_t s) {
            if (pairs)
              radix::sort_separate<Key, std::uint32_t>(keys.data(), values.data(), keys_out.data(), values_out.data(),
                                                       n, options, ws, s);
            else
              radix::sort_separate<Key, radix::no_value>(keys.data(), nullptr, keys_out.data(), nullptr, n, options,
                                                         ws, s);
          },
          [&, pairs](const bkt::bench::comparison& row) {
            bool same = bkt::to_host_sync<Key>(keys_out.span(), stream) == bkt::to_host_sync<Key>(peer_keys.span(), stream);
            if (pairs)
              same = same && bkt::to_host_sync<std::uint32_t>(values_out.span(), stream) ==
                                 bkt::to_host_sync<std::uint32_t>(peer_values.span(), stream);
            if (!same) {
              std::fprintf(stderr, "MISMATCH %s\n", row.name.c_str());
              std::exit(1);
            }
          },
          stream);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  return bkt::bench::run_main(argc, argv, "tune_scatter", "Scatter tile tuning", [](const bkt::bench::options& opts,
                                                                                      cudaStream_t stream) {
    const std::string shape = "keys " + std::to_string(BKT_MULTISPLIT_KEY_THREADS) + "x" +
                              std::to_string(BKT_MULTISPLIT_ITEMS) + " min_blocks " +
                              std::to_string(BKT_MULTISPLIT_KEY_MIN_BLOCKS) + ", others " +
                              std::to_string(BKT_MULTISPLIT_THREADS) + "x" + std::to_string(BKT_MULTISPLIT_PAIR_ITEMS) +
                              " wide " + std::to_string(BKT_MULTISPLIT_WIDE_KEY_ITEMS) + "/" +
                              std::to_string(BKT_MULTISPLIT_WIDE_ITEMS) + " min_blocks " +
                              std::to_string(BKT_MULTISPLIT_MIN_BLOCKS);
    bkt::bench::report rep("scatter tiles " + shape, opts, stream);
    key_rows<std::uint32_t>(rep, opts, stream, {1, 8, 32});
    key_rows<std::uint64_t>(rep, opts, stream, {64});
    rep.finish();
  });
}
