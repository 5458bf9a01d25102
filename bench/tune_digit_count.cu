// Tuning run for radix sort's upfront digit count, alone (radix_sort_bench times it only inside
// whole sorts). Rows: the count of a u32 sort (4 passes) on uniform, all-equal and sorted keys,
// and of a u64 sort (8 passes) on uniform keys. The peer is CUB's DeviceReduce::Sum over the same
// keys, which reads the same bytes and counts nothing: the floor a count can approach. Every count
// is checked against the host's. Build: the CMake target tune_digit_count, configured with
// -DBKT_BUILD_TUNING=ON (bench/CMakeLists.txt); on the GPU host, scripts/tuning-build.sh.
#include <cub/device/device_reduce.cuh>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bkt/detail/radix_sort/digit_count_kernel.cuh"
#include "bkt/device_buffer.hpp"
#include "bkt/memory.hpp"
#include "cub_peer.cuh"
#include "harness.hpp"
#include "inputs.cuh"

namespace {

namespace radix = bkt::detail::radix_sort;
using bkt::bench::cub_storage;

/// The counts of every pass of `plan`, computed on the host.
template <class Key>
std::vector<unsigned long long> host_counts(const std::vector<Key>& keys, const radix::pass_plan& plan) {
  std::vector<unsigned long long> counts(static_cast<std::size_t>(plan.passes * plan.digit_stride()));
  for (int pass = 0; pass < plan.passes; ++pass) {
    const auto digit = plan.digit<Key>(pass);
    unsigned long long* row = counts.data() + pass * plan.digit_stride();
    for (const Key& key : keys) ++row[digit(key)];
  }
  return counts;
}

template <class Key, class Make>
void count_row(bkt::bench::report& rep, const bkt::bench::options& opts, std::int64_t n, const std::string& name,
               Make make, cub_storage& cub, cudaStream_t stream) {
  bkt::device_buffer<Key> keys(n, stream);
  bkt::device_buffer<Key> sum(1, stream);
  bkt::bench::fill(keys.data(), n, make, stream);
  const radix::pass_plan plan = radix::make_plan(sizeof(Key), {});
  bkt::device_buffer<unsigned long long> totals(plan.passes * plan.digit_stride(), stream);
  const auto peer = bkt::bench::cub_count_calls(
      cub, "cub::Reduce::Sum", n,
      [&](void* t, std::size_t& b, cudaStream_t s, auto count) {
        return cub::DeviceReduce::Sum(t, b, keys.data(), sum.data(), count, s);
      },
      stream);
  bkt::bench::compare(
      rep, opts, {name, static_cast<double>(n), static_cast<double>(n) * sizeof(Key), "read n keys"}, peer,
      [&](cudaStream_t s) {
        BKT_CUDA_CHECK(cudaMemsetAsync(totals.data(), 0, totals.size() * sizeof(unsigned long long), s));
        radix::launch_digit_count(keys.data(), n, plan, totals.data(), s);
      },
      [&](const bkt::bench::comparison& row) {
        const auto got = bkt::to_host_sync<unsigned long long>(totals.span(), stream);
        if (got != host_counts(bkt::to_host_sync<Key>(keys.span(), stream), plan)) {
          std::fprintf(stderr, "MISMATCH %s\n", row.name.c_str());
          std::exit(1);
        }
      },
      stream);
}

struct equal_keys {
  __device__ std::uint32_t operator()(std::int64_t) const { return 0x12345678u; }
};

}  // namespace

int main(int argc, char** argv) {
  return bkt::bench::run_main(argc, argv, "tune_digit_count", "Digit count tuning", [](const bkt::bench::options& opts,
                                                                                        cudaStream_t stream) {
    bkt::bench::report rep("radix sort digit count", opts, stream);
    const std::int64_t n = std::int64_t{1} << opts.log2_items;
    cub_storage cub;
    count_row<std::uint32_t>(rep, opts, n, "u32 uniform, 4 passes", bkt::bench::uniform_keys<std::uint32_t>{}, cub, stream);
    count_row<std::uint32_t>(rep, opts, n, "u32 all equal", equal_keys{}, cub, stream);
    count_row<std::uint32_t>(rep, opts, n, "u32 sorted", bkt::bench::positions<std::uint32_t>{}, cub, stream);
    count_row<std::uint64_t>(rep, opts, n, "u64 uniform, 8 passes", bkt::bench::uniform_keys<std::uint64_t>{}, cub, stream);
    rep.finish();
  });
}
