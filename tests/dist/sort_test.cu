// bkt::dist sorts against the single-GPU radix sort of the whole input, on every rank, for every
// key type, adversarial generator, layout (even, one rank with 90 %, empty ranks, random sizes)
// and size; pairs for a few key and value types; odd sizes of millions for 32-bit keys.
#include <gtest/gtest.h>

#include <string>

#include "dist_support.hpp"
#include "sort_run.cuh"
#include "support/device_run.hpp"

namespace {

using namespace bkt::test;
using namespace bkt::test::dist;

template <class T>
class dist_sort_test : public ::testing::Test {};
using key_types = ::testing::Types<std::int8_t, std::uint16_t, std::int32_t, std::uint32_t, std::int64_t,
                                   std::uint64_t, float, double, __half, __nv_bfloat16>;
TYPED_TEST_SUITE(dist_sort_test, key_types);

TYPED_TEST(dist_sort_test, slices_match_the_single_gpu_sort) {
  BKT_REQUIRE_DIST();
  using T = TypeParam;
  test_stream stream;
  bkt::dist::workspace ws;
  bkt::workspace single_ws;
  for (const std::int64_t n : dist_sizes())
    for (const auto& gen : sweep_generators<T>())
      for (const auto& lay : layouts()) {
        SCOPED_TRACE(gen.name + " n=" + std::to_string(n) + " " + lay.name + " seed=" + std::to_string(seed()));
        check_dist_sort<T>(gen.make(n, seed()), lay.sizes(n, comm().size()), ws, single_ws, stream);
      }
}

template <class T>
class dist_sort_large_test : public ::testing::Test {};
using large_types = ::testing::Types<std::uint32_t, float>;
TYPED_TEST_SUITE(dist_sort_large_test, large_types);

TYPED_TEST(dist_sort_large_test, odd_millions_match_the_single_gpu_sort) {
  BKT_REQUIRE_DIST();
  using T = TypeParam;
  test_stream stream;
  bkt::dist::workspace ws;
  bkt::workspace single_ws;
  const std::int64_t n = dist_sizes(true).back();
  for (const auto& gen : sweep_generators<T>())
    for (const auto& lay : layouts()) {
      if (!worth_running(n, gen.name, lay.name)) continue;
      SCOPED_TRACE(gen.name + " n=" + std::to_string(n) + " " + lay.name + " seed=" + std::to_string(seed()));
      check_dist_sort<T>(gen.make(n, seed()), lay.sizes(n, comm().size()), ws, single_ws, stream);
    }
}

TEST(dist_sort_pairs_test, values_travel_with_their_keys) {
  BKT_REQUIRE_DIST();
  test_stream stream;
  bkt::dist::workspace ws;
  bkt::workspace single_ws;
  for (const std::int64_t n : dist_sizes(true))
    for (const auto& lay : layouts()) {
      if (!worth_running(n, "uniform", lay.name)) continue;
      SCOPED_TRACE("n=" + std::to_string(n) + " " + lay.name + " seed=" + std::to_string(seed()));
      const auto sizes = lay.sizes(n, comm().size());
      for (const auto& gen : sweep_generators<std::uint32_t>())
        if (gen.name == "uniform" || gen.name == "all_equal" || gen.name == "zipf")
          check_dist_sort_pairs<std::uint32_t, std::uint32_t>(gen.make(n, seed()), sizes, ws, single_ws, stream);
      for (const auto& gen : sweep_generators<double>())
        if (gen.name == "bit_patterns" || gen.name == "sixteen_distinct")
          check_dist_sort_pairs<double, std::uint64_t>(gen.make(n, seed()), sizes, ws, single_ws, stream);
      for (const auto& gen : sweep_generators<std::uint64_t>())
        if (gen.name == "uniform" || gen.name == "reverse_sorted")
          check_dist_sort_pairs<std::uint64_t, float>(gen.make(n, seed()), sizes, ws, single_ws, stream);
    }
}

}  // namespace
