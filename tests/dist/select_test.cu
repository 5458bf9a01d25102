// bkt::dist selection against the single-GPU library on the whole input, on every rank: select_kth
// and multiselect equal in the selection order, top_k bit for bit with equal global positions, for
// every selection type, adversarial generator, layout and size.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "bkt/detail/select/select_bits.hpp"
#include "bkt/dist/select.hpp"
#include "bkt/error.hpp"
#include "bkt/memory.hpp"
#include "bkt/select.hpp"
#include "dist_support.hpp"
#include "support/device_run.hpp"

namespace {

using namespace bkt::test;
using namespace bkt::test::dist;

template <class T>
::testing::AssertionResult equal_in_order(const std::vector<T>& want, const std::vector<T>& got) {
  if (want.size() != got.size()) return ::testing::AssertionFailure() << "sizes differ";
  for (std::size_t i = 0; i < want.size(); ++i)
    if (bkt::detail::select_bits(want[i]) != bkt::detail::select_bits(got[i]))
      return ::testing::AssertionFailure() << "result " << i << " differs";
  return ::testing::AssertionSuccess();
}

template <class T>
class dist_select_test : public ::testing::Test {};
using select_types = ::testing::Types<std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double>;
TYPED_TEST_SUITE(dist_select_test, select_types);

TYPED_TEST(dist_select_test, ranks_match_the_single_gpu_selection) {
  BKT_REQUIRE_DIST();
  using T = TypeParam;
  test_stream stream;
  bkt::dist::workspace ws;
  bkt::workspace single_ws;
  auto& c = comm();
  for (const std::int64_t n : dist_sizes(true)) {
    if (n == 0) continue;
    for (const auto& gen : sweep_generators<T>())
      for (const auto& lay : layouts()) {
        if (!worth_running(n, gen.name, lay.name)) continue;
        SCOPED_TRACE(gen.name + " n=" + std::to_string(n) + " " + lay.name + " seed=" + std::to_string(seed()));
        const auto all = gen.make(n, seed());
        auto d_part = to_device<T>(my_part(all, lay.sizes(n, c.size()), c.rank()), stream);
        auto d_all = to_device<T>(all, stream);
        std::vector<std::int64_t> ranks;
        for (int i = 0; i <= 20; ++i) ranks.push_back(i * (n - 1) / 20);
        ranks.push_back(n / 3);  // a repeat of nothing in particular, out of order
        auto got = poisoned_buffer<T>(static_cast<std::int64_t>(ranks.size()), stream);
        auto want = poisoned_buffer<T>(static_cast<std::int64_t>(ranks.size()), stream);
        bkt::dist::multiselect<T>(c, d_part.span(), ranks, got.span(), ws, stream);
        bkt::multiselect<T>(d_all.span(), ranks, want.span(), single_ws, stream);
        EXPECT_TRUE(equal_in_order(to_host(want), to_host(got))) << "multiselect";
        auto one = poisoned_buffer<T>(1, stream);
        bkt::dist::select_kth<T>(c, d_part.span(), n / 2, one.data(), ws, stream);
        bkt::select_kth<T>(d_all.span(), n / 2, want.data(), single_ws, stream);
        EXPECT_TRUE(equal_in_order(std::vector<T>{to_host(want)[0]}, to_host(one))) << "select_kth";
      }
  }
}

TYPED_TEST(dist_select_test, top_k_matches_the_single_gpu_top_k) {
  BKT_REQUIRE_DIST();
  using T = TypeParam;
  test_stream stream;
  bkt::dist::workspace ws;
  bkt::workspace single_ws;
  auto& c = comm();
  for (const std::int64_t n : dist_sizes(true))
    for (const auto& gen : sweep_generators<T>())
      for (const auto& lay : layouts()) {
        if (!worth_running(n, gen.name, lay.name)) continue;
        const auto all = gen.make(n, seed());
        auto d_part = to_device<T>(my_part(all, lay.sizes(n, c.size()), c.rank()), stream);
        auto d_all = to_device<T>(all, stream);
        const std::set<std::int64_t> ks = {0, std::min<std::int64_t>(n, 1), std::min<std::int64_t>(n, 33),
                                           std::min<std::int64_t>(n, 1024), n};
        for (const std::int64_t k : ks)
          for (const bool largest : {true, false}) {
            SCOPED_TRACE(gen.name + " n=" + std::to_string(n) + " k=" + std::to_string(k) + " " + lay.name +
                         (largest ? " largest" : " smallest") + " seed=" + std::to_string(seed()));
            bkt::top_k_options single;
            single.largest = largest;
            single.sorted = true;
            bkt::dist::top_k_options options;
            options.largest = largest;
            auto want_values = poisoned_buffer<T>(k, stream);
            auto want_positions = poisoned_buffer<std::int64_t>(k, stream);
            bkt::top_k<T, std::int64_t>(d_all.span(), k, want_values.span(), want_positions.span(), single_ws, stream,
                                        single);
            auto values = poisoned_buffer<T>(k + 3, stream);
            auto positions = poisoned_buffer<std::int64_t>(k + 3, stream);
            bkt::dist::top_k<T, std::int64_t>(c, d_part.span(), k, values.span(), positions.span(), ws, stream, options);
            const auto got_values = to_host(values);
            const auto got_positions = to_host(positions);
            EXPECT_TRUE(bitwise_equal<T>(to_host(want_values), std::span<const T>(got_values).first(k)));
            EXPECT_TRUE(bitwise_equal<std::int64_t>(to_host(want_positions),
                                                    std::span<const std::int64_t>(got_positions).first(k)));
            EXPECT_TRUE(poison_intact<T>(std::span<const T>(got_values).subspan(k)));
            if (!largest) continue;
            // 32-bit positions, values skipped.
            auto narrow = poisoned_buffer<std::uint32_t>(k, stream);
            bkt::dist::top_k<T, std::uint32_t>(c, d_part.span(), k, {}, narrow.span(), ws, stream, options);
            const auto narrow_positions = to_host(narrow);
            for (std::int64_t j = 0; j < k; ++j)
              if (static_cast<std::int64_t>(narrow_positions[j]) != got_positions[j]) {
                ADD_FAILURE() << "32-bit position " << j << " differs";
                break;
              }
          }
      }
}

TEST(dist_select_cases, bad_ranks_and_k_fail_every_rank) {
  BKT_REQUIRE_DIST();
  test_stream stream;
  bkt::dist::workspace ws;
  auto& c = comm();
  auto d_part = to_device<float>(generators<float>()[0].make(10, seed()), stream);
  auto out = poisoned_buffer<float>(4, stream);
  const std::int64_t n = 10 * c.size();
  EXPECT_THROW(bkt::dist::select_kth<float>(c, d_part.span(), n, out.data(), ws, stream), bkt::error);
  EXPECT_THROW(bkt::dist::select_kth<float>(c, d_part.span(), -1, out.data(), ws, stream), bkt::error);
  if (c.size() > 1)  // k differs between ranks
    EXPECT_THROW((bkt::dist::top_k<float, std::int64_t>(c, d_part.span(), 2 + c.rank() % 2, out.span(), {}, ws, stream)),
                 bkt::error);
  EXPECT_THROW((bkt::dist::top_k<float, std::int64_t>(c, d_part.span(), n + 1, {}, {}, ws, stream)), bkt::error);
  // Ranks differ between ranks (rank 1 asks for another one).
  if (c.size() > 1) {
    const std::vector<std::int64_t> ranks = {0, c.rank() == 1 ? 2 : 1};
    EXPECT_THROW(bkt::dist::multiselect<float>(c, d_part.span(), ranks, out.span(), ws, stream), bkt::error);
  }
  // Still usable.
  EXPECT_NO_THROW(bkt::dist::select_kth<float>(c, d_part.span(), 0, out.data(), ws, stream));
  EXPECT_NO_THROW(bkt::read_sync(out.data(), stream));
}

}  // namespace
