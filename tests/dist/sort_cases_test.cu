// Named behaviours of the distributed sort: one rank's bad argument fails every rank (no rank is
// left waiting) and the communicator stays usable; ranks disagreeing on options fail alike; a
// single sample per rank still sorts; the argsort without keys; 32-bit global positions; phase
// times; balance on all-equal keys.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "bkt/error.hpp"
#include "dist_support.hpp"
#include "sort_run.cuh"
#include "support/device_run.hpp"

namespace {

using namespace bkt::test;
using namespace bkt::test::dist;

std::vector<std::uint32_t> uniform_keys(std::int64_t n) { return generators<std::uint32_t>()[0].make(n, seed()); }

TEST(dist_sort_cases, one_rank_with_too_small_an_output_fails_every_rank) {
  BKT_REQUIRE_DIST();
  test_stream stream;
  bkt::dist::workspace ws;
  auto& c = comm();
  const std::int64_t n = 10000;
  const auto sizes = layouts()[0].sizes(n, c.size());
  auto d_part = to_device<std::uint32_t>(my_part(uniform_keys(n), sizes, c.rank()), stream);
  const std::int64_t capacity = bkt::dist::sort_capacity(n, c.size());
  auto out = poisoned_buffer<std::uint32_t>(capacity, stream);
  // The last rank passes one element too few; every rank must throw.
  const std::int64_t mine = c.rank() == c.size() - 1 ? capacity - 1 : capacity;
  EXPECT_THROW(bkt::dist::sort_keys<std::uint32_t>(c, d_part.span(), out.span().first(mine), ws, stream), bkt::error);
  // A null input of 5 elements on rank 0 only: a local argument error, reported everywhere.
  const std::uint32_t* null_keys = nullptr;
  const std::span<const std::uint32_t> input = c.rank() == 0 ? std::span<const std::uint32_t>(null_keys, 5) : d_part.span();
  EXPECT_THROW(bkt::dist::sort_keys<std::uint32_t>(c, input, out.span(), ws, stream), bkt::error);
  // The communicator still works.
  bkt::workspace single_ws;
  check_dist_sort<std::uint32_t>(uniform_keys(n), sizes, ws, single_ws, stream);
}

// Sorts 100 keys a rank with each rank's options; every rank must throw.
void expect_every_rank_fails(const std::function<void(bkt::dist::sort_options&)>& set_options) {
  test_stream stream;
  bkt::dist::workspace ws;
  auto& c = comm();
  auto d_part = to_device<std::uint32_t>(uniform_keys(100), stream);
  auto out = poisoned_buffer<std::uint32_t>(bkt::dist::sort_capacity(100 * c.size(), c.size()), stream);
  bkt::dist::sort_options options;
  set_options(options);
  EXPECT_THROW(bkt::dist::sort_keys<std::uint32_t>(c, d_part.span(), out.span(), ws, stream, options), bkt::error);
}

TEST(dist_sort_cases, ranks_disagreeing_on_the_order_fail_every_rank) {
  BKT_REQUIRE_DIST();
  if (comm().size() < 2) GTEST_SKIP() << "needs two ranks";
  expect_every_rank_fails([](bkt::dist::sort_options& options) {
    if (comm().rank() == 1) options.order = bkt::sort_order::descending;
  });
}

TEST(dist_sort_cases, few_samples_still_sort_exactly) {
  BKT_REQUIRE_DIST();
  test_stream stream;
  bkt::dist::workspace ws;
  auto& c = comm();
  const std::int64_t n = 50001;
  const auto all = uniform_keys(n);
  const auto sizes = layouts()[3].sizes(n, c.size());
  auto d_part = to_device<std::uint32_t>(my_part(all, sizes, c.rank()), stream);
  bkt::workspace single_ws;
  auto d_all = to_device<std::uint32_t>(all, stream);
  auto want = poisoned_buffer<std::uint32_t>(n, stream);
  bkt::radix_sort_keys<std::uint32_t>(d_all.span(), want.span(), single_ws, stream);
  for (const std::int64_t samples : {1, 3, 100000}) {
    SCOPED_TRACE("samples_per_rank=" + std::to_string(samples));
    bkt::dist::sort_options options;
    options.samples_per_rank = samples;
    const std::int64_t capacity = bkt::dist::sort_capacity(n, c.size(), options);
    auto out = poisoned_buffer<std::uint32_t>(capacity + sort_margin, stream);
    const auto result = bkt::dist::sort_keys<std::uint32_t>(c, d_part.span(), out.span().first(capacity), ws, stream, options);
    expect_tiling(result, n, capacity);
    expect_slice<std::uint32_t>(to_host(want), to_host(out), result, "few samples");
  }
}

TEST(dist_sort_cases, both_merges_of_the_received_runs_agree_with_one_gpu) {
  BKT_REQUIRE_DIST();
  test_stream stream;
  bkt::dist::workspace ws;
  bkt::workspace single_ws;
  auto& c = comm();
  for (const auto merge : {bkt::dist::sort_merge::merge, bkt::dist::sort_merge::radix_sort}) {
    bkt::dist::sort_options options;
    options.merge = merge;
    for (const std::int64_t n : dist_sizes())
      for (const auto& lay : layouts()) {
        SCOPED_TRACE(std::string(merge == bkt::dist::sort_merge::merge ? "merge" : "radix_sort") + " n=" +
                     std::to_string(n) + " " + lay.name + " seed=" + std::to_string(seed()));
        const auto sizes = lay.sizes(n, c.size());
        for (const auto& gen : sweep_generators<float>())
          if (gen.name == "uniform" || gen.name == "all_equal" || gen.name == "bit_patterns")
            check_dist_sort<float>(gen.make(n, seed()), sizes, ws, single_ws, stream, options);
        for (const auto& gen : sweep_generators<std::uint16_t>())
          if (gen.name == "zipf" || gen.name == "uniform")
            check_dist_sort_pairs<std::uint16_t, std::uint64_t>(gen.make(n, seed()), sizes, ws, single_ws, stream,
                                                                options);
      }
  }
}

TEST(dist_sort_cases, argsort_without_keys_and_with_32_bit_positions) {
  BKT_REQUIRE_DIST();
  test_stream stream;
  bkt::dist::workspace ws;
  auto& c = comm();
  const std::int64_t n = 70001;
  const auto all = generators<float>()[2].make(n, seed());  // all_equal: positions alone tell stability
  const auto sizes = layouts()[1].sizes(n, c.size());
  auto d_part = to_device<float>(my_part(all, sizes, c.rank()), stream);
  bkt::workspace single_ws;
  auto d_all = to_device<float>(all, stream);
  auto want = poisoned_buffer<std::uint32_t>(n, stream);
  bkt::radix_sort_indices<float, std::uint32_t>(d_all.span(), {}, want.span(), single_ws, stream);
  const std::int64_t capacity = bkt::dist::sort_capacity(n, c.size());
  auto positions = poisoned_buffer<std::uint32_t>(capacity + sort_margin, stream);
  const auto result = bkt::dist::sort_indices<float, std::uint32_t>(c, d_part.span(), {},
                                                                    positions.span().first(capacity), ws, stream);
  expect_tiling(result, n, capacity);
  expect_slice<std::uint32_t>(to_host(want), to_host(positions), result, "argsort without keys");
  // All-equal keys: the shares are even however the input was laid out.
  EXPECT_LE(static_cast<double>(result.count), 1.1 * static_cast<double>(n) / c.size() + 1);
}

TEST(dist_sort_cases, profile_reports_every_phase_and_workspace_is_reused) {
  BKT_REQUIRE_DIST();
  test_stream stream;
  bkt::dist::workspace ws;
  bkt::workspace single_ws;
  auto& c = comm();
  bkt::dist::sort_options options;
  options.profile = true;
  for (const std::int64_t n : {200003, 17, 0, 90001}) {  // growing, shrinking and growing again
    SCOPED_TRACE("n=" + std::to_string(n));
    const auto all = uniform_keys(n);
    const auto sizes = layouts()[0].sizes(n, c.size());
    auto d_part = to_device<std::uint32_t>(my_part(all, sizes, c.rank()), stream);
    const std::int64_t capacity = bkt::dist::sort_capacity(n, c.size());
    auto out = poisoned_buffer<std::uint32_t>(capacity, stream);
    const auto result = bkt::dist::sort_keys<std::uint32_t>(c, d_part.span(), out.span(), ws, stream, options);
    for (const double ms : result.phase_ms) EXPECT_GE(ms, 0.0);
    check_dist_sort<std::uint32_t>(all, sizes, ws, single_ws, stream);
  }
}

TEST(dist_sort_cases, chunked_exchange_agrees_with_one_gpu) {
  // 1, 2 and 3 chunks (the merge of chunk c overlapping the exchange of chunk c + 1), both merges,
  // every layout (uneven, empty ranks), keys with empty chunks (all equal, two values) and pairs
  // whose narrow keys make the widest windows (1-byte keys: 16-key alignment).
  BKT_REQUIRE_DIST();
  test_stream stream;
  bkt::dist::workspace ws;
  bkt::workspace single_ws;
  auto& c = comm();
  for (const int chunks : {1, 2, 3})
    for (const auto merge : {bkt::dist::sort_merge::merge, bkt::dist::sort_merge::radix_sort}) {
      bkt::dist::sort_options options;
      options.chunks = chunks;
      options.merge = merge;
      for (const std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{33}, std::int64_t{4099}, std::int64_t{300007}})
        for (const auto& lay : layouts()) {
          if (quick_mode() && n > 5000) continue;  // the sanitizer runs
          SCOPED_TRACE("chunks=" + std::to_string(chunks) + (merge == bkt::dist::sort_merge::merge ? " merge" : " radix_sort") +
                       " n=" + std::to_string(n) + " " + lay.name + " seed=" + std::to_string(seed()));
          const auto sizes = lay.sizes(n, c.size());
          for (const auto& gen : sweep_generators<std::uint32_t>())
            if (gen.name == "uniform" || gen.name == "all_equal" || gen.name == "two_values" || gen.name == "sorted")
              check_dist_sort<std::uint32_t>(gen.make(n, seed()), sizes, ws, single_ws, stream, options);
          for (const auto& gen : sweep_generators<std::int8_t>())
            if (gen.name == "uniform" || gen.name == "zipf")
              check_dist_sort_pairs<std::int8_t, std::uint64_t>(gen.make(n, seed()), sizes, ws, single_ws, stream, options);
          for (const auto& gen : sweep_generators<double>())
            if (gen.name == "bit_patterns")
              check_dist_sort_pairs<double, std::uint32_t>(gen.make(n, seed()), sizes, ws, single_ws, stream, options);
        }
    }
}

TEST(dist_sort_cases, ranks_disagreeing_on_chunks_fail_every_rank) {
  BKT_REQUIRE_DIST();
  if (comm().size() < 2) GTEST_SKIP() << "needs two ranks";
  expect_every_rank_fails([](bkt::dist::sort_options& options) { options.chunks = comm().rank() == 1 ? 2 : 1; });
  expect_every_rank_fails([](bkt::dist::sort_options& options) { options.chunks = 65; });  // out of range everywhere
}

}  // namespace
