// The external sample sort on its own, with the CPU sorter (the multisplit runs on the GPU when
// there is one): every chunk size and bucket size gives what one stable sort gives, skewed inputs
// included; and the key images order keys as the sort does.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <stdexcept>

#include "chunk_sorter.hpp"
#include "expected.hpp"
#include "external_sort.hpp"

namespace bkt::radixsort::test {
namespace {

/// Sorts `values` through external_sort in chunks of `chunk` with buckets of at most `bucket`
/// keys; returns the input positions in output order, checking the keys against them.
template <class T>
std::vector<std::int64_t> external_order(const std::vector<T>& values, std::size_t chunk, std::int64_t bucket,
                                         bool descending) {
  radix_sort_options options;
  options.order = descending ? sort_order::descending : sort_order::ascending;
  const auto sorter = make_cpu_sorter<T>(options);
  external_sort<T> sort(descending, true, bucket, std::filesystem::temp_directory_path().string());
  for (std::size_t start = 0; start < values.size(); start += chunk)
    sort.sample(std::span<const T>(values.data() + start, std::min(chunk, values.size() - start)));
  sort.choose_splitters(static_cast<std::int64_t>(values.size()));
  for (std::size_t start = 0; start < values.size(); start += chunk) {
    // split() overwrites its chunk with the keys' images, as it does the tool's read buffer.
    std::vector<T> part(values.begin() + static_cast<std::ptrdiff_t>(start),
                        values.begin() + static_cast<std::ptrdiff_t>(std::min(start + chunk, values.size())));
    sort.split(part, static_cast<std::int64_t>(start));
  }
  std::vector<std::int64_t> order;
  sort_times times;
  sort.sort_buckets(*sorter, [&] { return make_cpu_sorter<T>(options); }, times,
                    [&](const T* keys, const std::int64_t* positions, std::int64_t count) {
                      for (std::int64_t i = 0; i < count; ++i) {
                        EXPECT_EQ(std::memcmp(&keys[i], &values[static_cast<std::size_t>(positions[i])], sizeof(T)), 0);
                        order.push_back(positions[i]);
                      }
                    });
  return order;
}

TEST(external_sort, equals_one_stable_sort_for_every_chunk_and_bucket_size) {
  const auto values = adversarial_values<std::int32_t>(3001, 41);
  for (bool descending : {false, true})
    for (std::size_t chunk : {1u, 7u, 64u, 1000u, 5000u})
      for (std::int64_t bucket : {1, 5, 100, 4000})
        EXPECT_EQ(external_order(values, chunk, bucket, descending), stable_order(values, descending))
            << "chunk " << chunk << " bucket " << bucket << (descending ? " descending" : "");
}

TEST(external_sort, floats_in_total_order_with_nan_zeros_and_infinities) {
  auto values = adversarial_values<double>(2000, 43);
  values[3] = -0.0, values[4] = 0.0, values[5] = -std::numeric_limits<double>::quiet_NaN();
  values[6] = std::numeric_limits<double>::infinity(), values[7] = -std::numeric_limits<double>::infinity();
  values[8] = std::numeric_limits<double>::denorm_min();
  for (bool descending : {false, true})
    EXPECT_EQ(external_order(values, 97, 50, descending), stable_order(values, descending));
}

TEST(external_sort, skewed_inputs_go_to_buckets_of_equal_keys_in_input_order) {
  // All equal, and one value for most keys: buckets far larger than `bucket` hold equal keys only.
  std::vector<std::uint16_t> equal(5000, 7);
  EXPECT_EQ(external_order(equal, 128, 16, false), stable_order(equal));
  std::vector<std::uint64_t> heavy(5000, 1ull << 40);
  for (std::size_t i = 0; i < heavy.size(); i += 17) heavy[i] = i;
  heavy.back() = ~0ull;  // the largest image: a splitter without a successor
  for (bool descending : {false, true})
    EXPECT_EQ(external_order(heavy, 300, 64, descending), stable_order(heavy, descending));
}

TEST(external_sort, a_failing_write_stops_the_sort_with_its_error) {
  // emit runs on the writer thread; its error must come out of sort_buckets, and no bucket may be
  // handed over after it.
  const auto values = adversarial_values<std::uint32_t>(4000, 45);
  const auto sorter = make_cpu_sorter<std::uint32_t>({});
  external_sort<std::uint32_t> sort(false, false, 100, std::filesystem::temp_directory_path().string());
  sort.sample(values);
  sort.choose_splitters(static_cast<std::int64_t>(values.size()));
  for (std::size_t start = 0; start < values.size(); start += 500) {
    std::vector<std::uint32_t> part(values.begin() + static_cast<std::ptrdiff_t>(start),
                                    values.begin() + static_cast<std::ptrdiff_t>(start + 500));
    sort.split(part, static_cast<std::int64_t>(start));
  }
  ASSERT_GT(sort.num_buckets(), 4);
  int calls = 0;
  sort_times times;
  EXPECT_THROW(sort.sort_buckets(*sorter, [&] { return make_cpu_sorter<std::uint32_t>({}); }, times,
                                 [&](const std::uint32_t*, const std::int64_t*, std::int64_t) {
                                   if (++calls == 2) throw std::runtime_error("disk full");
                                 }),
               std::runtime_error);
  EXPECT_EQ(calls, 2);
}

TEST(order_image, orders_keys_as_the_sort_does_and_inverts) {
  const auto values = adversarial_values<float>(1000, 44);
  for (bool descending : {false, true}) {
    const auto order = stable_order(values, descending);
    for (std::size_t i = 1; i < order.size(); ++i) {
      const float before = values[static_cast<std::size_t>(order[i - 1])], after = values[static_cast<std::size_t>(order[i])];
      EXPECT_LE(radixsort::order_image(before, descending), radixsort::order_image(after, descending));
    }
    for (const float value : values) {
      const float back = key_of_image<float>(radixsort::order_image(value, descending), descending);
      EXPECT_EQ(std::memcmp(&back, &value, sizeof value), 0);
    }
  }
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
