// GPU radix sort against std::stable_sort (bkt::ref) over every key type, generator and size, in
// every form (keys, pairs, indices, double buffers), both orders, bit ranges and digit widths.
#include <gtest/gtest.h>

#include <array>
#include <string>

#include "bkt/radix_sort.hpp"
#include "support/device_run.hpp"
#include "support/generators.hpp"
#include "support/radix_sort_run.cuh"

namespace {

using namespace bkt::test;

template <class T>
class radix_sort_test : public ::testing::Test {};
using key_types = ::testing::Types<std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t,
                                   std::uint32_t, std::int64_t, std::uint64_t, float, double, __half,
                                   __nv_bfloat16>;
TYPED_TEST_SUITE(radix_sort_test, key_types);

bkt::radix_sort_options descending() {
  bkt::radix_sort_options options;
  options.order = bkt::sort_order::descending;
  return options;
}

TYPED_TEST(radix_sort_test, every_form_matches_stable_sort_on_every_generator_and_size) {
  BKT_REQUIRE_GPU();
  using T = TypeParam;
  test_stream stream;
  bkt::workspace ws;
  for (const std::int64_t n : sizes())
    for (const auto& gen : sweep_generators<T>()) {
      SCOPED_TRACE(gen.name + " n=" + std::to_string(n) + " seed=" + std::to_string(seed()));
      const auto keys = gen.make(n, seed());
      check_radix_sort<T>(keys, {}, every_sort_form, ws, stream);
      check_radix_sort<T>(keys, descending(), sort_keys | sort_pairs32 | sort_keys_double_buffer, ws, stream);
    }
}

TYPED_TEST(radix_sort_test, bit_ranges_and_digit_widths) {
  BKT_REQUIRE_GPU();
  using T = TypeParam;
  constexpr int key_bits = 8 * sizeof(T);
  test_stream stream;
  bkt::workspace ws;
  const std::int64_t n = quick_mode() ? 3000 : 70001;
  for (const auto& gen : sweep_generators<T>()) {
    SCOPED_TRACE(gen.name + " seed=" + std::to_string(seed()));
    const auto keys = gen.make(n, seed());
    // Every explicit width over the whole key, in both orders.
    for (int width = 1; width <= 8; ++width) {
      bkt::radix_sort_options options;
      options.digit_bits = width;
      SCOPED_TRACE("digit_bits=" + std::to_string(width));
      check_radix_sort<T>(keys, options, sort_keys | sort_pairs32, ws, stream);
      options.order = bkt::sort_order::descending;
      check_radix_sort<T>(keys, options, sort_keys, ws, stream);
    }
    // Ranges: empty (a stable copy), low, middle, top, one bit, and odd widths that spread unevenly.
    const std::array<std::array<int, 2>, 7> ranges{{{0, 0},
                                                    {key_bits / 2, key_bits / 2},
                                                    {0, 3},
                                                    {1, key_bits - 1},
                                                    {key_bits - 5, key_bits},
                                                    {key_bits - 1, key_bits},
                                                    {2, key_bits > 16 ? 19 : key_bits}}};
    for (const auto& [begin, end] : ranges) {
      bkt::radix_sort_options options;
      options.begin_bit = begin;
      options.end_bit = end;
      SCOPED_TRACE("bits [" + std::to_string(begin) + ", " + std::to_string(end) + ")");
      check_radix_sort<T>(keys, options, every_sort_form, ws, stream);
      options.order = bkt::sort_order::descending;
      check_radix_sort<T>(keys, options, sort_keys | sort_pairs64 | sort_indices64_no_keys, ws, stream);
    }
  }
}

TYPED_TEST(radix_sort_test, host_api_on_gpu_matches_the_cpu) {
  BKT_REQUIRE_GPU();
  using T = TypeParam;
  const auto keys = generators<T>().front().make(100003, seed());
  std::vector<T> gpu(keys.size()), cpu(keys.size());
  bkt::host::radix_sort_keys<T>(keys, gpu, descending(), bkt::host::backend::gpu);
  bkt::host::radix_sort_keys<T>(keys, cpu, descending(), bkt::host::backend::cpu);
  EXPECT_TRUE(bitwise_equal<T>(cpu, gpu));
  std::vector<std::int64_t> gpu_order(keys.size()), cpu_order(keys.size());
  bkt::host::radix_sort_indices<T, std::int64_t>(keys, {}, gpu_order, {}, bkt::host::backend::gpu);
  bkt::host::radix_sort_indices<T, std::int64_t>(keys, {}, cpu_order, {}, bkt::host::backend::cpu);
  EXPECT_EQ(cpu_order, gpu_order);
}

}  // namespace
