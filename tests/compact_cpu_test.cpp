// CPU-side compaction: the references, the host API's CPU path, and argument checking (which
// happens before any CUDA call, so it runs without a GPU).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "bkt/compact.hpp"
#include "bkt/ref/compact.hpp"
#include "support/checks.hpp"
#include "support/error_message.hpp"
#include "support/generators.hpp"

namespace {

using namespace bkt::test;

TEST(compact_reference, small_examples) {
  const std::vector<int> in = {5, -1, 7, 0, -3, 8, 8};
  std::vector<int> out(in.size(), 99);
  const auto positive = [](int x) { return x > 0; };
  EXPECT_EQ(bkt::ref::select_if<int>(in, out, positive), 4);
  EXPECT_EQ(out, (std::vector<int>{5, 7, 8, 8, 99, 99, 99}));
  EXPECT_EQ(bkt::ref::stable_partition<int>(in, out, positive), 4);
  EXPECT_EQ(out, (std::vector<int>{5, 7, 8, 8, -1, 0, -3}));
  const std::vector<std::uint8_t> flags = {0, 1, 0, 2, 0, 0, 255};
  EXPECT_EQ((bkt::ref::select_flagged<int, std::uint8_t>(in, flags, out)), 3);
  EXPECT_EQ(std::vector<int>(out.begin(), out.begin() + 3), (std::vector<int>{-1, 0, 8}));
  std::vector<int> values = {0, 1, 2, 3, 4, 5, 6}, keys_out(7), values_out(7);
  EXPECT_EQ((bkt::ref::stable_partition<int, int>(in, values, keys_out, values_out, positive)), 4);
  EXPECT_EQ(values_out, (std::vector<int>{0, 2, 5, 6, 1, 3, 4}));
}

template <class T>
class compact_cpu_path : public ::testing::Test {};
using key_types = ::testing::Types<std::int8_t, std::uint16_t, std::int32_t, std::uint64_t, float, double>;
TYPED_TEST_SUITE(compact_cpu_path, key_types);

TYPED_TEST(compact_cpu_path, host_api_on_cpu_matches_the_standard_library) {
  using T = TypeParam;
  const bkt::compare_with<T> pred{bkt::compare_op::greater, T(0)};
  for (const std::int64_t n : {0, 1, 33, 1025, 100003})
    for (const auto& gen : generators<T>()) {
      SCOPED_TRACE(gen.name + " n=" + std::to_string(n));
      const auto in = gen.make(n, seed());
      std::vector<T> want, got(in.size());
      std::copy_if(in.begin(), in.end(), std::back_inserter(want), pred);
      const auto count = bkt::host::select_if<T>(in, got, pred, bkt::host::backend::cpu);
      ASSERT_EQ(count, static_cast<std::int64_t>(want.size()));
      EXPECT_TRUE(bitwise_equal<T>(want, std::span<const T>(got).first(want.size())));

      std::vector<T> partitioned = in;
      std::stable_partition(partitioned.begin(), partitioned.end(), pred);
      EXPECT_EQ(bkt::host::stable_partition<T>(in, got, pred, bkt::host::backend::cpu), count);
      EXPECT_TRUE(bitwise_equal<T>(partitioned, got));
    }
}

TEST(compact_policy, float_comparisons_follow_ieee) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> in = {nan, -0.0f, 0.0f, 1.0f, -std::numeric_limits<float>::infinity()};
  std::vector<float> out(in.size());
  using op = bkt::compare_op;
  EXPECT_EQ(bkt::host::select_if<float>(in, out, {op::equal, 0.0f}, bkt::host::backend::cpu), 2) << "-0 == +0";
  EXPECT_EQ(bkt::host::select_if<float>(in, out, {op::not_equal, 0.0f}, bkt::host::backend::cpu), 3) << "NaN != x";
  EXPECT_EQ(bkt::host::select_if<float>(in, out, {op::less, 1.0f}, bkt::host::backend::cpu), 3) << "NaN fails <";
  EXPECT_EQ(bkt::host::select_if<float>(in, out, {op::greater_equal, -1e30f}, bkt::host::backend::cpu), 3);
}

// ---- argument checks: bkt::error with a message, never a crash ----

TEST(compact_arguments, bad_calls_are_refused_with_a_message) {
  bkt::workspace ws;
  std::int64_t* count = reinterpret_cast<std::int64_t*>(alignof(std::int64_t));  // never dereferenced
  const float* fake = reinterpret_cast<const float*>(256);
  float* fake_out = reinterpret_cast<float*>(512);
  const bkt::compare_with<float> pred{bkt::compare_op::greater, 0.0f};

  EXPECT_NE(error_of([&] { bkt::select_if<float>({static_cast<const float*>(nullptr), 10}, {fake_out, 10}, count, pred, ws, nullptr); })
                .find("input is a null pointer"),
            std::string::npos);
  EXPECT_NE(error_of([&] { bkt::select_if<float>({fake, 10}, {fake_out, 9}, count, pred, ws, nullptr); })
                .find("output holds 9 elements, fewer than the 10"),
            std::string::npos);
  EXPECT_NE(error_of([&] { bkt::select_if<float>({fake, 10}, {fake_out, 10}, nullptr, pred, ws, nullptr); })
                .find("count pointer is null"),
            std::string::npos);
  const std::uint8_t* flags = reinterpret_cast<const std::uint8_t*>(1024);
  EXPECT_NE(error_of([&] { bkt::select_flagged<float>({fake, 10}, {flags, 8}, {fake_out, 10}, count, ws, nullptr); })
                .find("input has 10 elements but flags has 8"),
            std::string::npos);
  const std::uint32_t* values = reinterpret_cast<const std::uint32_t*>(2048);
  std::uint32_t* values_out = reinterpret_cast<std::uint32_t*>(4096);
  EXPECT_NE(error_of([&] {
              bkt::stable_partition<float, std::uint32_t>({fake, 10}, {values, 10}, {fake_out, 10}, {values_out, 3},
                                                          count, pred, ws, nullptr);
            }).find("value output holds 3"),
            std::string::npos);
}

TEST(compact_arguments, too_small_fixed_workspace_is_refused) {
  bkt::workspace fixed(nullptr, 0);
  std::int64_t* count = reinterpret_cast<std::int64_t*>(alignof(std::int64_t));
  const float* fake = reinterpret_cast<const float*>(256);
  float* fake_out = reinterpret_cast<float*>(512);
  const std::string message = error_of([&] {
    bkt::select_if<float>({fake, 1000}, {fake_out, 1000}, count, {bkt::compare_op::less, 1.0f}, fixed, nullptr);
  });
  EXPECT_NE(message.find("workspace too small"), std::string::npos) << message;
}

TEST(compact_arguments, workspace_bytes_grow_with_tiles) {
  EXPECT_EQ(bkt::compact_workspace_bytes(0, 4), 0u);
  EXPECT_EQ(bkt::compact_workspace_bytes(1, 4), 8u) << "one status word per tile";
  EXPECT_GT(bkt::compact_workspace_bytes(std::int64_t{1} << 33, 1), bkt::compact_workspace_bytes(1 << 20, 1));
  EXPECT_THROW(bkt::compact_workspace_bytes(10, 3), bkt::error);
  EXPECT_THROW(bkt::compact_workspace_bytes(10, 4, 32), bkt::error);
}

}  // namespace
