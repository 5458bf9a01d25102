// Named behaviours of GPU compaction: empty input, none or all kept, input unchanged, in place,
// unaligned keys or flags, 16-byte elements, workspace reuse, and more than 2^31 elements.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "bkt/compact.cuh"
#include "bkt/detail/compact/tile_shape.hpp"
#include "bkt/ref/compact.hpp"
#include "support/device_run.hpp"
#include "support/generators.hpp"

namespace {

using namespace bkt::test;

struct keep_all {
  __host__ __device__ bool operator()(float) const { return true; }
};

struct is_odd {
  __host__ __device__ bool operator()(std::uint32_t x) const { return x & 1u; }
};

/// Runs select_if on host data and returns (count, whole output).
std::pair<std::int64_t, std::vector<std::uint32_t>> select_odd(const std::vector<std::uint32_t>& in,
                                                               cudaStream_t stream) {
  bkt::workspace ws;
  auto d_in = bkt::to_device<std::uint32_t>(in, stream);
  auto out = poisoned_buffer<std::uint32_t>(static_cast<std::int64_t>(in.size()), stream);
  bkt::device_buffer<std::int64_t> count(1, stream);
  bkt::select_if<std::uint32_t>(d_in.span(), out.span(), count.data(), is_odd{}, ws, stream);
  return {bkt::read_sync(count.data(), stream), to_host(out)};
}

TEST(compact_cases, empty_input_writes_zero_count_and_nothing_else) {
  BKT_REQUIRE_GPU();
  test_stream stream;
  bkt::workspace ws;
  auto out = poisoned_buffer<float>(4, stream);
  bkt::device_buffer<std::int64_t> count(1, stream);
  BKT_CUDA_CHECK(cudaMemsetAsync(count.data(), 0xff, sizeof(std::int64_t), stream));
  bkt::select_if<float>(std::span<const float>(), out.span(), count.data(), keep_all{}, ws, stream);
  EXPECT_EQ(bkt::read_sync(count.data(), stream), 0);
  EXPECT_TRUE(poison_intact<float>(to_host(out)));
  EXPECT_EQ(ws.capacity(), 0u) << "an empty call needs no workspace";
}

TEST(compact_cases, none_kept_and_all_kept) {
  BKT_REQUIRE_GPU();
  test_stream stream;
  std::vector<std::uint32_t> even(100001), odd(100001);
  for (std::size_t i = 0; i < even.size(); ++i) even[i] = 2 * static_cast<std::uint32_t>(i), odd[i] = even[i] + 1;
  const auto [none, none_out] = select_odd(even, stream);
  EXPECT_EQ(none, 0);
  EXPECT_TRUE(poison_intact<std::uint32_t>(none_out));
  const auto [all, all_out] = select_odd(odd, stream);
  EXPECT_EQ(all, static_cast<std::int64_t>(odd.size()));
  EXPECT_EQ(all_out, odd);
}

TEST(compact_cases, input_is_unchanged_and_in_place_select_works) {
  BKT_REQUIRE_GPU();
  test_stream stream;
  bkt::workspace ws;
  const auto keys = generators<std::uint32_t>()[0].make(3'000'017, seed());
  std::vector<std::uint32_t> want(keys.size());
  const auto want_count = bkt::ref::select_if<std::uint32_t>(keys, want, is_odd{});

  auto d_keys = bkt::to_device<std::uint32_t>(keys, stream);
  auto out = poisoned_buffer<std::uint32_t>(static_cast<std::int64_t>(keys.size()), stream);
  bkt::device_buffer<std::int64_t> count(1, stream);
  bkt::select_if<std::uint32_t>(d_keys.span(), out.span(), count.data(), is_odd{}, ws, stream);
  EXPECT_EQ(to_host(d_keys), keys) << "the input was modified";

  // In place: out == in. Safe because a tile writes only below its predecessors' consumed input.
  bkt::select_if<std::uint32_t>(d_keys.span(), d_keys.span(), count.data(), is_odd{}, ws, stream);
  ASSERT_EQ(bkt::read_sync(count.data(), stream), want_count);
  const auto in_place = to_host(d_keys);
  EXPECT_TRUE(std::equal(want.begin(), want.begin() + want_count, in_place.begin()));
}

TEST(compact_cases, unaligned_input_takes_the_scalar_path) {
  BKT_REQUIRE_GPU();
  test_stream stream;
  bkt::workspace ws;
  const auto keys = generators<std::uint32_t>()[0].make(1'000'003, seed());
  auto d_keys = bkt::to_device<std::uint32_t>(keys, stream);
  const std::span<const std::uint32_t> shifted = d_keys.span().subspan(1);  // 4-byte, not 16-byte aligned
  std::vector<std::uint32_t> want(shifted.size());
  const auto want_count = bkt::ref::select_if<std::uint32_t>(std::span(keys).subspan(1), want, is_odd{});
  auto out = poisoned_buffer<std::uint32_t>(static_cast<std::int64_t>(shifted.size()), stream);
  bkt::device_buffer<std::int64_t> count(1, stream);
  bkt::select_if<std::uint32_t>(shifted, out.span(), count.data(), is_odd{}, ws, stream);
  ASSERT_EQ(bkt::read_sync(count.data(), stream), want_count);
  const auto got = to_host(out);
  EXPECT_TRUE(std::equal(want.begin(), want.begin() + want_count, got.begin()));
  EXPECT_TRUE(poison_intact<std::uint32_t>(std::span(got).subspan(want_count)));
}

/// Keys aligned for the copy engine, flags one byte off: the tiles must not come through the ring.
TEST(compact_cases, unaligned_flags_with_aligned_keys) {
  BKT_REQUIRE_GPU();
  test_stream stream;
  bkt::workspace ws;
  const std::size_t n = 1'000'003;
  const auto keys = generators<std::uint32_t>()[0].make(n, seed());
  std::vector<std::uint8_t> flags(n + 1);
  for (std::size_t i = 0; i < n; ++i) flags[i + 1] = keys[i] % 3 == 0;
  auto d_keys = bkt::to_device<std::uint32_t>(keys, stream);
  auto d_flags = bkt::to_device<std::uint8_t>(flags, stream);
  std::vector<std::uint32_t> want;
  for (std::size_t i = 0; i < n; ++i)
    if (flags[i + 1]) want.push_back(keys[i]);
  auto out = poisoned_buffer<std::uint32_t>(static_cast<std::int64_t>(n), stream);
  bkt::device_buffer<std::int64_t> count(1, stream);
  bkt::select_flagged<std::uint32_t, std::uint8_t>(d_keys.span(), d_flags.span().subspan(1), out.span(), count.data(),
                                                   ws, stream);
  ASSERT_EQ(bkt::read_sync(count.data(), stream), static_cast<std::int64_t>(want.size()));
  const auto got = to_host(out);
  EXPECT_TRUE(std::equal(want.begin(), want.end(), got.begin()));
  EXPECT_TRUE(poison_intact<std::uint32_t>(std::span(got).subspan(want.size())));
}

struct alignas(16) wide {
  std::uint64_t low, high;
  bool operator==(const wide&) const = default;
};
struct wide_low_bit {
  __host__ __device__ bool operator()(const wide& w) const { return (w.low ^ w.high) & 1u; }
};

TEST(compact_cases, sixteen_byte_elements_and_partition) {
  BKT_REQUIRE_GPU();
  test_stream stream;
  bkt::workspace ws;
  for (const std::int64_t n : sizes()) {
    SCOPED_TRACE("n=" + std::to_string(n));
    const auto bits = generators<std::uint64_t>()[0].make(2 * n, seed() + n);
    std::vector<wide> keys(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) keys[i] = {bits[2 * i], bits[2 * i + 1]};
    std::vector<wide> want(keys.size());
    const auto want_count = bkt::ref::stable_partition<wide>(keys, want, wide_low_bit{});
    auto d_keys = bkt::to_device<wide>(keys, stream);
    auto out = poisoned_buffer<wide>(n, stream);
    bkt::device_buffer<std::int64_t> count(1, stream);
    bkt::stable_partition<wide>(d_keys.span(), out.span(), count.data(), wide_low_bit{}, ws, stream);
    ASSERT_EQ(bkt::read_sync(count.data(), stream), want_count);
    EXPECT_EQ(to_host(out), want);
  }
}

TEST(compact_cases, fixed_workspace_of_the_stated_size_is_enough_and_reused) {
  BKT_REQUIRE_GPU();
  test_stream stream;
  const std::int64_t n = 5'000'011;
  const std::size_t bytes = bkt::compact_workspace_bytes(n, sizeof(std::uint32_t));
  bkt::device_buffer<std::byte> memory(static_cast<std::int64_t>(bytes), stream);
  bkt::workspace ws(memory.data(), bytes);
  const auto keys = generators<std::uint32_t>()[0].make(n, seed());
  std::vector<std::uint32_t> want(keys.size());
  const auto want_count = bkt::ref::select_if<std::uint32_t>(keys, want, is_odd{});
  auto d_keys = bkt::to_device<std::uint32_t>(keys, stream);
  auto out = poisoned_buffer<std::uint32_t>(n, stream);
  bkt::device_buffer<std::int64_t> count(1, stream);
  for (int repeat = 0; repeat < 3; ++repeat) {
    bkt::select_if<std::uint32_t>(d_keys.span(), out.span(), count.data(), is_odd{}, ws, stream);
    ASSERT_EQ(bkt::read_sync(count.data(), stream), want_count) << "repeat " << repeat;
  }
  const auto got = to_host(out);
  EXPECT_TRUE(std::equal(want.begin(), want.begin() + want_count, got.begin()));
}

struct below_half {
  __host__ __device__ bool operator()(float x) const { return x < 0.5f; }
};

/// Each block takes many tiles in turn (the grid is at most a few blocks per SM): every staging
/// buffer, look-back and barrier round is reused, across every output mode.
TEST(compact_cases, blocks_that_take_many_tiles_match_the_reference) {
  BKT_REQUIRE_GPU();
  test_stream stream;
  bkt::workspace ws;
  int device = 0, multiprocessors = 0;
  BKT_CUDA_CHECK(cudaGetDevice(&device));
  BKT_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  const std::int64_t tile = bkt::detail::compact::compact_tile_items(sizeof(float), 0);
  const std::int64_t n = (quick_mode() ? 9 : 12) * multiprocessors * tile + 777;
  const auto size = static_cast<std::size_t>(n);
  std::vector<float> unit(size);  // in [0, 1), scattered: below_half keeps about half of every tile
  for (std::size_t i = 0; i < size; ++i) unit[i] = static_cast<float>(i * 2654435761u % 1000003u) / 1000003.0f;
  std::vector<std::uint32_t> values(size);
  std::iota(values.begin(), values.end(), 0u);
  std::vector<std::uint8_t> flags(size);
  for (std::size_t i = 0; i < size; ++i) flags[i] = unit[i] < 0.5f;

  auto d_keys = bkt::to_device<float>(unit, stream);
  auto d_values = bkt::to_device<std::uint32_t>(values, stream);
  auto d_flags = bkt::to_device<std::uint8_t>(flags, stream);
  bkt::device_buffer<std::int64_t> count(1, stream);
  std::vector<float> want(size);
  std::vector<std::uint32_t> want_values(size);

  const auto kept = bkt::ref::select_if<float>(unit, want, below_half{});
  auto out = poisoned_buffer<float>(n, stream);
  bkt::select_if<float>(d_keys.span(), out.span(), count.data(), below_half{}, ws, stream);
  ASSERT_EQ(bkt::read_sync(count.data(), stream), kept);
  auto got = to_host(out);
  EXPECT_TRUE(std::equal(want.begin(), want.begin() + kept, got.begin())) << "select_if";
  EXPECT_TRUE(poison_intact<float>({got.begin() + kept, got.end()})) << "select_if wrote past its count";

  out = poisoned_buffer<float>(n, stream);
  bkt::select_flagged<float, std::uint8_t>(d_keys.span(), d_flags.span(), out.span(), count.data(), ws, stream);
  ASSERT_EQ(bkt::read_sync(count.data(), stream), kept);
  got = to_host(out);
  EXPECT_TRUE(std::equal(want.begin(), want.begin() + kept, got.begin())) << "select_flagged";

  bkt::ref::stable_partition<float>(unit, want, below_half{});
  out = poisoned_buffer<float>(n, stream);
  bkt::stable_partition<float>(d_keys.span(), out.span(), count.data(), below_half{}, ws, stream);
  ASSERT_EQ(bkt::read_sync(count.data(), stream), kept);
  EXPECT_EQ(to_host(out), want) << "stable_partition";

  out = poisoned_buffer<float>(n, stream);
  auto rejected = poisoned_buffer<float>(n, stream);
  bkt::stable_partition<float>(d_keys.span(), out.span(), rejected.span(), count.data(), below_half{}, ws, stream);
  ASSERT_EQ(bkt::read_sync(count.data(), stream), kept);
  got = to_host(out);
  const auto got_rejected = to_host(rejected);
  EXPECT_TRUE(std::equal(want.begin(), want.begin() + kept, got.begin())) << "stable_partition, selected";
  EXPECT_TRUE(std::equal(want.begin() + kept, want.end(), got_rejected.begin())) << "stable_partition, rejected";

  const auto kept_pairs = bkt::ref::select_if<float, std::uint32_t>(unit, values, want, want_values, below_half{});
  out = poisoned_buffer<float>(n, stream);
  auto out_values = poisoned_buffer<std::uint32_t>(n, stream);
  bkt::select_if<float, std::uint32_t>(d_keys.span(), d_values.span(), out.span(), out_values.span(), count.data(),
                                       below_half{}, ws, stream);
  ASSERT_EQ(bkt::read_sync(count.data(), stream), kept_pairs);
  got = to_host(out);
  const auto got_values = to_host(out_values);
  EXPECT_TRUE(std::equal(want.begin(), want.begin() + kept_pairs, got.begin())) << "select_if pairs, keys";
  EXPECT_TRUE(std::equal(want_values.begin(), want_values.begin() + kept_pairs, got_values.begin()))
      << "select_if pairs, values";
}

/// More than 2^31 one-byte keys: 64-bit sizes and offsets all the way through.
TEST(compact_cases, more_than_two_to_the_31_elements) {
  BKT_REQUIRE_GPU();
  if (const char* cap = std::getenv("BKT_TEST_MAX_SIZE"); cap != nullptr)
    GTEST_SKIP() << "BKT_TEST_MAX_SIZE is set (sanitizer run)";
  const std::int64_t n = (std::int64_t{1} << 31) + 4097;
  test_stream stream;
  bkt::workspace ws;
  std::vector<std::uint8_t> keys(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) keys[i] = static_cast<std::uint8_t>((i * 2654435761u) >> 13);
  try {
    auto d_keys = bkt::to_device<std::uint8_t>(keys, stream);
    auto out = poisoned_buffer<std::uint8_t>(n, stream);
    bkt::device_buffer<std::int64_t> count(1, stream);
    const bkt::compare_with<std::uint8_t> pred{bkt::compare_op::less, 100};
    bkt::stable_partition<std::uint8_t>(d_keys.span(), out.span(), count.data(), pred, ws, stream);
    std::vector<std::uint8_t> want(keys.size());
    const auto want_count = bkt::ref::stable_partition<std::uint8_t>(keys, want, pred);
    ASSERT_EQ(bkt::read_sync(count.data(), stream), want_count);
    EXPECT_TRUE(to_host(out) == want);
  } catch (const bkt::error& e) {
    if (e.out_of_memory()) GTEST_SKIP() << "not enough device memory: " << e.what();
    throw;
  }
}

}  // namespace
