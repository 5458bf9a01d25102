// Radix sort cases beyond the sweep: argument errors, the workspace, passes every key shares, and
// more than 2^31 keys.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "bkt/radix_sort.hpp"
#include "support/device_run.hpp"
#include "support/generators.hpp"
#include "support/radix_sort_run.cuh"

namespace {

using namespace bkt::test;

TEST(radix_sort_cases, bad_arguments_are_errors_not_crashes) {
  BKT_REQUIRE_GPU();
  test_stream stream;
  bkt::workspace ws;
  bkt::device_buffer<std::uint32_t> keys(100, stream), out(100, stream), small(99, stream);
  bkt::radix_sort_options options;
  EXPECT_THROW(bkt::radix_sort_keys<std::uint32_t>(keys.span(), small.span(), ws, stream), bkt::error);
  EXPECT_THROW(bkt::radix_sort_keys<std::uint32_t>(keys.span(), keys.span(), ws, stream), bkt::error);
  EXPECT_THROW(bkt::radix_sort_keys<std::uint32_t>({static_cast<const std::uint32_t*>(nullptr), 5}, out.span(), ws, stream),
               bkt::error);
  options.end_bit = 33;
  EXPECT_THROW(bkt::radix_sort_keys<std::uint32_t>(keys.span(), out.span(), ws, stream, options), bkt::error);
  options = {};
  options.begin_bit = 9;
  options.end_bit = 8;
  EXPECT_THROW(bkt::radix_sort_keys<std::uint32_t>(keys.span(), out.span(), ws, stream, options), bkt::error);
  options = {};
  options.digit_bits = 9;
  EXPECT_THROW(bkt::radix_sort_keys<std::uint32_t>(keys.span(), out.span(), ws, stream, options), bkt::error);
  bkt::double_buffer<std::uint32_t> uneven{{keys.span(), small.span()}, 0};
  EXPECT_THROW(bkt::radix_sort_keys<std::uint32_t>(uneven, ws, stream), bkt::error);
  // A fixed workspace that is too small is refused.
  bkt::device_buffer<std::byte> tiny(256, stream);
  bkt::workspace fixed(tiny.data(), 256);
  EXPECT_THROW(bkt::radix_sort_keys<std::uint32_t>(keys.span(), out.span(), fixed, stream), bkt::error);
}

TEST(radix_sort_cases, a_workspace_of_the_stated_size_suffices_and_is_reused) {
  BKT_REQUIRE_GPU();
  test_stream stream;
  const std::int64_t n = quick_mode() ? 5003 : 300007;
  std::vector<float> keys(n);
  for (std::int64_t i = 0; i < n; ++i) keys[i] = static_cast<float>((i * 7919) % 1000) - 500.0f;
  for (const auto form : {bkt::radix_sort_form::separate_output, bkt::radix_sort_form::double_buffer}) {
    const std::size_t bytes = bkt::radix_sort_workspace_bytes(n, sizeof(float), 4, {}, form);
    bkt::device_buffer<std::byte> memory(static_cast<std::int64_t>(bytes), stream);
    bkt::workspace fixed(memory.data(), bytes);
    check_radix_sort<float>(keys, {}, form == bkt::radix_sort_form::double_buffer ? sort_pairs_double_buffer : sort_pairs32,
                            fixed, stream);
    check_radix_sort<float>(keys, {}, form == bkt::radix_sort_form::double_buffer ? sort_keys_double_buffer : sort_keys,
                            fixed, stream);
  }
  const std::size_t bytes = bkt::radix_sort_workspace_bytes(n, sizeof(float), 8, {}, bkt::radix_sort_form::indices_only);
  bkt::device_buffer<std::byte> memory(static_cast<std::int64_t>(bytes), stream);
  bkt::workspace fixed(memory.data(), bytes);
  check_radix_sort<float>(keys, {}, sort_indices64_no_keys, fixed, stream);
}

// Passes whose digit every key shares copy their tile instead of splitting it; the passes around
// them still split, so the buffers alternate through both kinds. u64 keys below 2^40 (the top
// three 8-bit passes are shared), and u32 keys whose middle byte is fixed.
TEST(radix_sort_cases, passes_over_bits_every_key_shares) {
  BKT_REQUIRE_GPU();
  test_stream stream;
  bkt::workspace ws;
  const std::uint64_t s = seed();
  SCOPED_TRACE("BKT_TEST_SEED=" + std::to_string(s));
  for (const std::int64_t n : loop_sizes()) {
    SCOPED_TRACE("n=" + std::to_string(n));
    auto wide = generators<std::uint64_t>()[0].make(n, s + static_cast<std::uint64_t>(n));
    for (auto& key : wide) key >>= 24;
    check_radix_sort<std::uint64_t>(wide, {}, every_sort_form, ws, stream);
    auto narrow = generators<std::uint32_t>()[0].make(n, s + 1 + static_cast<std::uint64_t>(n));
    for (auto& key : narrow) key = (key & 0xff00ffffu) | 0x00a50000u;
    check_radix_sort<std::uint32_t>(narrow, {}, every_sort_form, ws, stream);
    if (::testing::Test::HasFailure()) return;
  }
}

/// 2^31 + 4097 one-byte keys with their uint32 positions: the sorted keys follow from the counts,
/// and the positions must point at equal keys and rise within each key (stability); together
/// they are a permutation.
TEST(radix_sort_cases, more_than_two_to_the_31_keys) {
  BKT_REQUIRE_GPU();
  if (quick_mode()) GTEST_SKIP() << "BKT_TEST_MAX_SIZE is set (sanitizer run)";
  const std::int64_t n = (std::int64_t{1} << 31) + 4097;
  test_stream stream;
  bkt::workspace ws;
  std::vector<std::uint8_t> keys(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) keys[i] = static_cast<std::uint8_t>((i * 2654435761u) >> 13);
  try {
    auto d_keys = bkt::to_device<std::uint8_t>(keys, stream);
    auto sorted = poisoned_buffer<std::uint8_t>(n, stream);
    auto positions = poisoned_buffer<std::uint32_t>(n, stream);
    bkt::radix_sort_indices<std::uint8_t, std::uint32_t>(d_keys.span(), sorted.span(), positions.span(), ws, stream);
    d_keys.release();
    const auto got = to_host(sorted);
    const auto got_positions = to_host(positions);
    std::array<std::int64_t, 256> counts{};
    for (const std::uint8_t key : keys) ++counts[key];
    std::int64_t j = 0, first_wrong = -1;
    for (int key = 0; key < 256 && first_wrong < 0; ++key)
      for (std::int64_t c = 0; c < counts[key]; ++c, ++j) {
        const std::uint32_t from = got_positions[j];
        const bool rises = c == 0 || from > got_positions[j - 1];
        if (got[j] != key || from >= n || keys[from] != key || !rises) {
          first_wrong = j;
          break;
        }
      }
    EXPECT_EQ(first_wrong, -1) << "sorted element " << first_wrong << " is wrong";
  } catch (const bkt::error& e) {
    if (e.out_of_memory()) GTEST_SKIP() << "not enough device memory: " << e.what();
    throw;
  }
}

}  // namespace
