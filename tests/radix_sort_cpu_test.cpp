// Radix sort without a GPU: the pass plan, the reference's order (the documented total order of
// floats, descending, bit ranges), and the host API's CPU path.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "bkt/error.hpp"
#include "bkt/radix_sort.hpp"
#include "bkt/ref/radix_sort.hpp"

namespace {

TEST(radix_sort_cpu, passes_follow_the_bit_range) {
  EXPECT_EQ(bkt::radix_sort_passes(4), 4);
  EXPECT_EQ(bkt::radix_sort_passes(8), 8);
  EXPECT_EQ(bkt::radix_sort_passes(1), 1);
  bkt::radix_sort_options options;
  options.end_bit = 20;
  EXPECT_EQ(bkt::radix_sort_passes(4, options), 3);  // 7 + 7 + 6 bits
  options.digit_bits = 5;
  EXPECT_EQ(bkt::radix_sort_passes(4, options), 4);
  options = {};
  options.begin_bit = options.end_bit = 16;
  EXPECT_EQ(bkt::radix_sort_passes(4, options), 1);  // the empty range: a stable copy
  options = {};
  options.end_bit = 33;
  EXPECT_THROW(bkt::radix_sort_passes(4, options), bkt::error);
  options = {};
  options.digit_bits = 9;
  EXPECT_THROW(bkt::radix_sort_passes(4, options), bkt::error);
}

// Key-only passes run smaller tiles than pairs (more look-back words), yet a workspace sized for
// pairs must serve the same keys alone (radix_sort.hpp).
TEST(radix_sort_cpu, a_workspace_for_pairs_serves_the_keys_alone) {
  for (const std::size_t key_bytes : {1, 2, 4, 8}) {
    for (const std::size_t value_bytes : {4, 8}) {
      for (const auto form : {bkt::radix_sort_form::separate_output, bkt::radix_sort_form::double_buffer}) {
        for (const std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{7679}, std::int64_t{7681},
                                     std::int64_t{300007}, (std::int64_t{1} << 28) + 3, (std::int64_t{1} << 31) + 1}) {
          SCOPED_TRACE(std::to_string(key_bytes) + "-byte keys, " + std::to_string(value_bytes) +
                       "-byte values, n = " + std::to_string(n));
          EXPECT_GE(bkt::radix_sort_workspace_bytes(n, key_bytes, value_bytes, {}, form),
                    bkt::radix_sort_workspace_bytes(n, key_bytes, 0, {}, form));
        }
      }
    }
  }
}

TEST(radix_sort_cpu, floats_follow_the_documented_total_order) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float denormal = std::numeric_limits<float>::denorm_min();
  const std::vector<float> want = {-nan, -inf, -1.0f, -denormal, -0.0f, 0.0f, denormal, 1.0f, inf, nan};
  std::vector<float> keys = {1.0f, nan, -0.0f, inf, -denormal, 0.0f, -nan, -1.0f, denormal, -inf};
  std::vector<float> got(keys.size());
  bkt::host::radix_sort_keys<float>(keys, got, {}, bkt::host::backend::cpu);
  for (std::size_t i = 0; i < want.size(); ++i)
    EXPECT_EQ(std::bit_cast<std::uint32_t>(got[i]), std::bit_cast<std::uint32_t>(want[i])) << "position " << i;
  bkt::radix_sort_options options;
  options.order = bkt::sort_order::descending;
  bkt::host::radix_sort_keys<float>(keys, got, options, bkt::host::backend::cpu);
  for (std::size_t i = 0; i < want.size(); ++i)
    EXPECT_EQ(std::bit_cast<std::uint32_t>(got[i]), std::bit_cast<std::uint32_t>(want[want.size() - 1 - i]));
}

/// The same order for CUDA's 16-bit floats, given as bit patterns in ascending order.
template <class Half>
void expect_half_total_order(const std::vector<std::uint16_t>& ascending) {
  const auto as_half = [](std::uint16_t bits) { return std::bit_cast<Half>(bits); };
  std::vector<Half> keys;
  for (std::size_t i = 0; i < ascending.size(); ++i) keys.push_back(as_half(ascending[(i * 7 + 3) % ascending.size()]));
  std::vector<Half> got(keys.size());
  bkt::host::radix_sort_keys<Half>(keys, got, {}, bkt::host::backend::cpu);
  for (std::size_t i = 0; i < ascending.size(); ++i)
    EXPECT_EQ(std::bit_cast<std::uint16_t>(got[i]), ascending[i]) << "position " << i;
}

TEST(radix_sort_cpu, half_and_bfloat16_follow_the_documented_total_order) {
  // -NaN, -inf, lowest, -1, -smallest normal, -largest and -smallest denormal, -0, then the same
  // mirrored, with two NaN payloads in bit order at the top.
  expect_half_total_order<__half>({0xfe00, 0xfc00, 0xfbff, 0xbc00, 0x8400, 0x83ff, 0x8001, 0x8000, 0x0000, 0x0001,
                                   0x03ff, 0x0400, 0x3c00, 0x7bff, 0x7c00, 0x7c01, 0x7e00});
  expect_half_total_order<__nv_bfloat16>({0xffc0, 0xff80, 0xff7f, 0xbf80, 0x8080, 0x807f, 0x8001, 0x8000, 0x0000,
                                          0x0001, 0x007f, 0x0080, 0x3f80, 0x7f7f, 0x7f80, 0x7f81, 0x7fc0});
}

TEST(radix_sort_cpu, equal_keys_keep_their_order_in_both_directions) {
  const std::vector<std::int32_t> keys = {3, -1, 3, 7, -1, 3};
  std::vector<std::int32_t> sorted(keys.size());
  std::vector<std::int64_t> order(keys.size());
  bkt::host::radix_sort_indices<std::int32_t, std::int64_t>(keys, sorted, order, {}, bkt::host::backend::cpu);
  EXPECT_EQ(sorted, (std::vector<std::int32_t>{-1, -1, 3, 3, 3, 7}));
  EXPECT_EQ(order, (std::vector<std::int64_t>{1, 4, 0, 2, 5, 3}));
  bkt::radix_sort_options options;
  options.order = bkt::sort_order::descending;
  bkt::host::radix_sort_indices<std::int32_t, std::int64_t>(keys, sorted, order, options, bkt::host::backend::cpu);
  EXPECT_EQ(sorted, (std::vector<std::int32_t>{7, 3, 3, 3, -1, -1}));
  EXPECT_EQ(order, (std::vector<std::int64_t>{3, 0, 2, 5, 1, 4}));
}

TEST(radix_sort_cpu, a_bit_range_sorts_by_those_bits_alone) {
  const std::vector<std::uint32_t> keys = {0x1'05, 0x0'07, 0x2'05, 0x3'01};
  std::vector<std::uint32_t> sorted(keys.size());
  std::vector<std::uint32_t> values = {10, 11, 12, 13}, values_out(keys.size());
  bkt::radix_sort_options options;
  options.end_bit = 8;  // the low byte only: ties keep input order
  bkt::host::radix_sort_pairs<std::uint32_t, std::uint32_t>(keys, values, sorted, values_out, options,
                                                            bkt::host::backend::cpu);
  EXPECT_EQ(sorted, (std::vector<std::uint32_t>{0x3'01, 0x1'05, 0x2'05, 0x0'07}));
  EXPECT_EQ(values_out, (std::vector<std::uint32_t>{13, 10, 12, 11}));
}

TEST(radix_sort_cpu, host_api_checks_its_arguments) {
  const std::vector<std::uint16_t> keys(10, 1);
  std::vector<std::uint16_t> small(9);
  EXPECT_THROW(bkt::host::radix_sort_keys<std::uint16_t>(keys, small, {}, bkt::host::backend::cpu), bkt::error);
  std::vector<std::uint16_t> out(10);
  bkt::radix_sort_options options;
  options.begin_bit = 17;
  EXPECT_THROW(bkt::host::radix_sort_keys<std::uint16_t>(keys, out, options, bkt::host::backend::cpu), bkt::error);
}

}  // namespace
