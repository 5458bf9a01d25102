// Named behaviours of GPU multisplit: every bucket count up to 256, the two-pass path above 256,
// everything in one bucket, skewed buckets, workspace reuse and sizing, unaligned data, and more
// than 2^31 keys.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <vector>

#include "bkt/multisplit.cuh"
#include "bkt/ref/multisplit.hpp"
#include "support/buckets.hpp"
#include "support/device_run.hpp"
#include "support/generators.hpp"
#include "support/multisplit_run.cuh"

namespace {

using namespace bkt::test;
using u32 = std::uint32_t;

/// hash(key) % num_buckets as an extended __device__ lambda; hash_buckets is its host twin.
void check_hash_lambda(const std::vector<u32>& keys, int num_buckets, unsigned modes, bkt::workspace& ws,
                       cudaStream_t stream) {
  const u32 divisor = static_cast<u32>(num_buckets);
  const auto on_device = [divisor] __device__(u32 key) -> int { return static_cast<int>(mix32(key) % divisor); };
  check_multisplit<u32, u32>(keys, num_buckets, on_device, hash_buckets{divisor}, modes, ws, stream);
}

TEST(multisplit_cases, every_bucket_count_from_1_to_256) {
  BKT_REQUIRE_GPU();
  test_stream stream;
  bkt::workspace ws;
  const std::uint64_t s = seed();
  SCOPED_TRACE("BKT_TEST_SEED=" + std::to_string(s));
  std::vector<int> counts;
  for (int m = 1; m <= 256; ++m)
    if (!quick_mode() || m <= 3 || m % 29 == 0 || m >= 254) counts.push_back(m);
  const auto sizes_here = quick_mode() ? std::vector<std::int64_t>{33, 4097} : std::vector<std::int64_t>{1, 33, 4097, 70001};
  for (const std::int64_t n : sizes_here)
    for (const auto& gen : sweep_generators<u32>()) {
      const auto keys = gen.make(n, s + static_cast<std::uint64_t>(n));
      for (const int m : counts) {
        SCOPED_TRACE(gen.name + " n=" + std::to_string(n) + " buckets=" + std::to_string(m));
        check_hash_lambda(keys, m, keys_only | pairs, ws, stream);
        if (::testing::Test::HasFailure()) return;
      }
    }
}

TEST(multisplit_cases, bucket_counts_above_256_take_two_passes) {
  BKT_REQUIRE_GPU();
  test_stream stream;
  bkt::workspace ws;
  const std::uint64_t s = seed();
  SCOPED_TRACE("BKT_TEST_SEED=" + std::to_string(s));
  for (const std::int64_t n : loop_sizes())
    for (const auto& gen : sweep_generators<u32>()) {
      const auto keys = gen.make(n, s + static_cast<std::uint64_t>(n));
      // Sanitizer runs (racecheck takes minutes per count): the smallest and largest counts.
      const auto counts = quick_mode() ? std::vector<int>{257, 65536} : std::vector<int>{257, 1000, 4096, 65536};
      for (const int m : counts) {
        SCOPED_TRACE(gen.name + " n=" + std::to_string(n) + " buckets=" + std::to_string(m));
        const hash_buckets fn{static_cast<u32>(m)};
        check_multisplit<u32, u32>(keys, m, fn, fn, all_modes, ws, stream);
      }
      if (::testing::Test::HasFailure()) return;
    }
}

/// Splitter tables in shared memory (up to 32 KiB) and beyond it (searched in global memory), up to
/// the largest bucket count.
TEST(multisplit_cases, many_splitters) {
  BKT_REQUIRE_GPU();
  test_stream stream;
  bkt::workspace ws;
  const std::uint64_t s = seed();
  SCOPED_TRACE("BKT_TEST_SEED=" + std::to_string(s));
  // Sanitizer runs: one table in shared memory and one beyond it.
  const auto counts = quick_mode() ? std::vector<int>{999, 10000} : std::vector<int>{999, 4095, 8192, 10000, 65535};
  for (const int count : counts) {
    const auto splitters = sorted_splitters<float>(count, s + static_cast<std::uint64_t>(count));
    auto d_splitters = bkt::to_device<float>(splitters, stream);
    const bkt::splitter_buckets<float> on_host{splitters.data(), count}, on_device{d_splitters.data(), count};
    for (const std::int64_t n : loop_sizes())
      for (const auto& gen : sweep_generators<float>()) {
        SCOPED_TRACE(gen.name + " n=" + std::to_string(n) + " splitters=" + std::to_string(count));
        const auto keys = gen.make(n, s + static_cast<std::uint64_t>(n));
        check_multisplit<float, float>(keys, count + 1, on_device, on_host, keys_only | pairs | index32_no_keys, ws,
                                       stream);
        if (::testing::Test::HasFailure()) return;
      }
  }
}

struct constant_bucket {
  int id;
  __host__ __device__ int operator()(u32) const { return id; }
};

TEST(multisplit_cases, everything_in_one_bucket) {
  BKT_REQUIRE_GPU();
  test_stream stream;
  bkt::workspace ws;
  const std::uint64_t s = seed();
  SCOPED_TRACE("BKT_TEST_SEED=" + std::to_string(s));
  // (num_buckets, id): one bucket; a bucket in the middle; ids past the end or negative (the last
  // bucket); the same on the two-pass path.
  const std::array<std::pair<int, int>, 7> cases = {{{1, 0}, {256, 200}, {256, 0}, {300, 70000}, {7, -1},
                                                     {65536, 12345}, {65536, 65535}}};
  for (const std::int64_t n : loop_sizes()) {
    const auto keys = generators<u32>()[0].make(n, s + static_cast<std::uint64_t>(n));
    for (const auto& [m, id] : cases) {
      SCOPED_TRACE("n=" + std::to_string(n) + " buckets=" + std::to_string(m) + " id=" + std::to_string(id));
      check_multisplit<u32, std::uint64_t>(keys, m, constant_bucket{id}, constant_bucket{id}, all_modes, ws, stream);
      // Spelled out: the keys come out unchanged, and the offsets step from 0 to n at the bucket.
      auto d_keys = bkt::to_device<u32>(keys, stream);
      auto out = poisoned_buffer<u32>(n, stream);
      bkt::device_buffer<std::int64_t> offsets(m + 1, stream);
      bkt::multisplit<u32>(d_keys.span(), out.span(), offsets.span(), m, constant_bucket{id}, ws, stream);
      const auto got = to_host(offsets);
      const int bucket = id >= 0 && id < m ? id : m - 1;
      EXPECT_EQ(to_host(out), keys);
      EXPECT_EQ(std::count(got.begin(), got.begin() + bucket + 1, 0), bucket + 1);
      EXPECT_EQ(std::count(got.begin() + bucket + 1, got.end(), n), m - bucket);
      if (::testing::Test::HasFailure()) return;
    }
  }
}

/// Bucket = Zipf rank - 1 (a few buckets hold most keys), capped at `last`.
struct zipf_rank {
  int last;
  __host__ __device__ int operator()(u32 rank) const { return static_cast<int>(rank) - 1 < last ? static_cast<int>(rank) - 1 : last; }
};

TEST(multisplit_cases, zipf_skewed_buckets) {
  BKT_REQUIRE_GPU();
  test_stream stream;
  bkt::workspace ws;
  const std::uint64_t s = seed();
  SCOPED_TRACE("BKT_TEST_SEED=" + std::to_string(s));
  const auto gens = generators<u32>();
  const auto zipf = *std::find_if(gens.begin(), gens.end(), [](const auto& g) { return g.name == "zipf"; });
  for (const std::int64_t n : sizes()) {
    const auto keys = zipf.make(n, s + static_cast<std::uint64_t>(n));
    for (const int m : {2, 17, 256, 1000, 65536}) {
      SCOPED_TRACE("n=" + std::to_string(n) + " buckets=" + std::to_string(m));
      check_multisplit<u32, u32>(keys, m, zipf_rank{m - 1}, zipf_rank{m - 1}, all_modes, ws, stream);
      if (::testing::Test::HasFailure()) return;
    }
  }
}

TEST(multisplit_cases, one_workspace_serves_calls_of_any_size) {
  BKT_REQUIRE_GPU();
  test_stream stream;
  bkt::workspace ws;
  const std::uint64_t s = seed();
  const std::int64_t big = sizes().back();
  const std::array<std::pair<std::int64_t, int>, 8> calls = {
      {{big, 256}, {10, 7}, {big / 3, 1000}, {0, 5}, {4097, 65536}, {big, 2}, {1, 1}, {big / 2, 300}}};
  for (const auto& [n, m] : calls) {
    SCOPED_TRACE("n=" + std::to_string(n) + " buckets=" + std::to_string(m));
    const auto keys = generators<u32>()[0].make(n, s + static_cast<std::uint64_t>(n));
    const hash_buckets fn{static_cast<u32>(m)};
    check_multisplit<u32, u32>(keys, m, fn, fn, keys_only | pairs | index64_no_keys, ws, stream);
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(multisplit_cases, fixed_workspace_of_the_stated_size_is_enough_and_reused) {
  BKT_REQUIRE_GPU();
  test_stream stream;
  const std::int64_t n = quick_mode() ? 20000 : 5'000'011;
  for (const int m : {100, 5000}) {
    SCOPED_TRACE("buckets=" + std::to_string(m));
    const std::size_t bytes = bkt::multisplit_workspace_bytes(n, m, sizeof(u32), sizeof(u32));
    bkt::device_buffer<std::byte> memory(static_cast<std::int64_t>(bytes), stream);
    bkt::workspace ws(memory.data(), bytes);
    const auto keys = generators<u32>()[0].make(n, seed());
    const hash_buckets fn{static_cast<u32>(m)};
    for (int repeat = 0; repeat < 3; ++repeat) check_multisplit<u32, u32>(keys, m, fn, fn, pairs, ws, stream);

    // One byte short of what keys alone need is refused before any work, with a bkt::error.
    bkt::workspace short_ws(memory.data(), bkt::multisplit_workspace_bytes(n, m, sizeof(u32)) - 1);
    auto d_keys = bkt::to_device<u32>(keys, stream);
    auto out = poisoned_buffer<u32>(n, stream);
    bkt::device_buffer<std::int64_t> offsets(m + 1, stream);
    EXPECT_THROW(bkt::multisplit<u32>(d_keys.span(), out.span(), offsets.span(), m, fn, short_ws, stream), bkt::error);
  }
}

TEST(multisplit_cases, input_unchanged_and_unaligned_data) {
  BKT_REQUIRE_GPU();
  test_stream stream;
  bkt::workspace ws;
  const std::int64_t n = quick_mode() ? 20000 : 3'000'017;
  const auto keys = generators<u32>()[0].make(n + 1, seed());
  auto d_keys = bkt::to_device<u32>(keys, stream);
  for (const int m : {200, 3000}) {
    SCOPED_TRACE("buckets=" + std::to_string(m));
    const hash_buckets fn{static_cast<u32>(m)};
    // Keys at an odd element (4-byte, not 16-byte aligned), outputs too.
    const std::vector<u32> tail(keys.begin() + 1, keys.end());
    const auto want = reference_split(tail, m, fn);
    auto out = poisoned_buffer<u32>(n + 2, stream);
    auto indices = poisoned_buffer<std::int64_t>(n + 2, stream);
    auto offsets = poisoned_buffer<std::int64_t>(m + 2, stream);
    const auto shifted_offsets = offsets.span().subspan(1);
    bkt::multisplit_indices<u32, std::int64_t>(d_keys.span().subspan(1), out.span().subspan(1, n),
                                               indices.span().subspan(1, n), shifted_offsets, m, fn, ws, stream);
    const auto got_keys = to_host(out);
    const auto got_indices = to_host(indices), got_offsets = to_host(offsets);
    EXPECT_TRUE(std::equal(want.offsets.begin(), want.offsets.end(), got_offsets.begin() + 1));
    EXPECT_TRUE(std::equal(want.indices.begin(), want.indices.end(), got_indices.begin() + 1));
    bool keys_ok = true;
    for (std::int64_t j = 0; j < n; ++j) keys_ok = keys_ok && got_keys[j + 1] == tail[want.indices[j]];
    EXPECT_TRUE(keys_ok);
    EXPECT_EQ(got_keys.front(), poison_value<u32>());
    EXPECT_EQ(got_keys.back(), poison_value<u32>());
    EXPECT_EQ(got_offsets.front(), poison_value<std::int64_t>());
    EXPECT_EQ(to_host(d_keys), keys) << "the input was modified";
  }
}

/// More than 2^31 one-byte keys: 64-bit sizes and offsets all the way through. The check is exact
/// yet needs no reference copy: walking the input once, each key must appear next in its bucket.
TEST(multisplit_cases, more_than_two_to_the_31_keys) {
  BKT_REQUIRE_GPU();
  if (quick_mode()) GTEST_SKIP() << "BKT_TEST_MAX_SIZE is set (sanitizer run)";
  const std::int64_t n = (std::int64_t{1} << 31) + 4097;
  test_stream stream;
  bkt::workspace ws;
  std::vector<std::uint8_t> keys(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) keys[i] = static_cast<std::uint8_t>((i * 2654435761u) >> 13);
  const bkt::bit_range_buckets<std::uint8_t> digit{5, 3};
  try {
    auto d_keys = bkt::to_device<std::uint8_t>(keys, stream);
    auto out = poisoned_buffer<std::uint8_t>(n, stream);
    auto offsets = poisoned_buffer<std::int64_t>(9 + split_margin, stream);
    bkt::multisplit<std::uint8_t>(d_keys.span(), out.span(), offsets.span(), 8, digit, ws, stream);
    d_keys.release();
    const auto got_offsets = to_host(offsets);
    std::array<std::int64_t, 9> want_offsets{};
    for (const std::uint8_t key : keys) ++want_offsets[digit(key) + 1];
    for (int b = 0; b < 8; ++b) want_offsets[b + 1] += want_offsets[b];
    ASSERT_TRUE(std::equal(want_offsets.begin(), want_offsets.end(), got_offsets.begin()));
    EXPECT_TRUE(poison_intact<std::int64_t>(std::span<const std::int64_t>(got_offsets).subspan(9)));
    const auto got = to_host(out);
    std::array<std::int64_t, 8> next;
    std::copy(want_offsets.begin(), want_offsets.end() - 1, next.begin());
    std::int64_t first_wrong = -1;
    for (std::int64_t i = 0; i < n && first_wrong < 0; ++i)
      if (got[next[digit(keys[i])]++] != keys[i]) first_wrong = i;
    EXPECT_EQ(first_wrong, -1) << "input element " << first_wrong << " is not where a stable split puts it";
  } catch (const bkt::error& e) {
    if (e.out_of_memory()) GTEST_SKIP() << "not enough device memory: " << e.what();
    throw;
  }
}

}  // namespace
