// The sort and merge steps on their own, on the CPU: stability across runs, spilled or not.
#include <gtest/gtest.h>

#include <filesystem>

#include "chunk_sorter.hpp"
#include "expected.hpp"
#include "merge_runs.hpp"
#include "sorted_runs.hpp"

namespace bkt::radixsort::test {
namespace {

/// Sorts `values` in chunks of `chunk` with the CPU sorter, merges, and returns the positions.
std::vector<std::int64_t> chunked_order(const std::vector<std::int32_t>& values, std::size_t chunk, bool descending,
                                        bool spill) {
  radix_sort_options options;
  options.order = descending ? sort_order::descending : sort_order::ascending;
  const auto sorter = make_cpu_sorter<std::int32_t>(options);
  run_store<std::int32_t> store(std::int64_t{1} << 30, spill, std::filesystem::temp_directory_path().string());
  sort_times times;
  for (std::size_t start = 0; start < values.size(); start += chunk) {
    const std::size_t count = std::min(chunk, values.size() - start);
    buffer<std::int32_t> keys(count);
    buffer<std::int64_t> indices(count);
    sorter->sort(std::span<const std::int32_t>(values.data() + start, count), keys, indices, times);
    for (auto& index : indices) index += static_cast<std::int64_t>(start);
    store.add(std::move(keys), std::move(indices));
  }
  EXPECT_EQ(store.spilled_runs(), spill ? static_cast<std::int64_t>(store.runs().size()) : 0);
  std::vector<std::int64_t> order;
  merge_runs(store, options, true, 5, 11,
             [&](const std::int32_t* keys, const std::int64_t* indices, std::int64_t count) {
               for (std::int64_t i = 0; i < count; ++i) {
                 EXPECT_EQ(keys[i], values[indices[i]]);
                 order.push_back(indices[i]);
               }
             });
  return order;
}

TEST(merge_runs, equals_one_stable_sort) {
  const auto values = adversarial_values<std::int32_t>(1000, 41);
  for (bool descending : {false, true})
    for (bool spill : {false, true})
      for (std::size_t chunk : {1u, 3u, 64u, 999u, 1000u, 5000u})
        EXPECT_EQ(chunked_order(values, chunk, descending, spill), stable_order(values, descending))
            << "chunk " << chunk << (descending ? " descending" : "") << (spill ? " spilled" : "");
}

TEST(cpu_sorter, keys_alone_and_with_indices) {
  const auto values = adversarial_values<double>(500, 42);
  const auto sorter = make_cpu_sorter<double>({});
  std::vector<double> keys(values.size());
  std::vector<std::int64_t> indices(values.size());
  sort_times times;
  sorter->sort(values, keys, {}, times);
  EXPECT_EQ(raw_bytes(keys), raw_bytes(gather(values, stable_order(values))));
  sorter->sort(values, keys, indices, times);
  EXPECT_EQ(indices, stable_order(values));
}

}  // namespace
}  // namespace bkt::radixsort::test
