// GPU compaction against bkt::ref over every generator, size and keep fraction.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>

#include "bkt/compact.cuh"
#include "bkt/ref/compact.hpp"
#include "support/device_run.hpp"
#include "support/generators.hpp"

namespace {

using namespace bkt::test;

/// Keeps a key when a hash of its bytes falls below `percent`: any fraction, for any type, and
/// equal keys always decide alike.
struct keep_by_hash {
  int percent;
  template <class T>
  __host__ __device__ bool operator()(const T& key) const {
    const unsigned char* bytes = reinterpret_cast<const unsigned char*>(&key);
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (std::size_t i = 0; i < sizeof(T); ++i) h = (h ^ bytes[i]) * 0x100000001b3ull;
    h ^= h >> 29;
    return static_cast<int>(h % 100) < percent;
  }
};

template <class T>
class compact_test : public ::testing::Test {};
using key_types = ::testing::Types<std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t,
                                   std::uint32_t, std::int64_t, std::uint64_t, float, double>;
TYPED_TEST_SUITE(compact_test, key_types);

enum class op { select_if, select_flagged, partition, partition_split };
const char* name_of(op o) {
  switch (o) {
    case op::select_if: return "select_if";
    case op::select_flagged: return "select_flagged";
    case op::partition: return "stable_partition";
    case op::partition_split: return "stable_partition(two outputs)";
  }
  return "?";
}

/// Runs `o` on keys alone and on (key, index) pairs, on the GPU and in bkt::ref, and compares
/// counts, outputs bit for bit, and the poisoned tails.
template <class T, class V>
void check_against_reference(op o, const std::vector<T>& keys, int percent, std::uint64_t seed,
                             bkt::workspace& ws, cudaStream_t stream) {
  const auto n = static_cast<std::int64_t>(keys.size());
  const keep_by_hash pred{percent};
  const auto flags = random_flags(n, percent, seed);
  std::vector<V> values(keys.size());
  std::iota(values.begin(), values.end(), V{0});  // the original index: checks stability too

  // Reference.
  std::vector<T> want_keys(keys.size()), want_rejected(keys.size());
  std::vector<V> want_values(keys.size());
  std::int64_t want_count = 0;
  switch (o) {
    case op::select_if: want_count = bkt::ref::select_if<T, V>(keys, values, want_keys, want_values, pred); break;
    case op::select_flagged:
      want_count = bkt::ref::select_flagged<T, V, std::uint8_t>(keys, values, flags, want_keys, want_values);
      break;
    case op::partition:
    case op::partition_split:
      want_count = bkt::ref::stable_partition<T, V>(keys, values, want_keys, want_values, pred);
      break;
  }

  // GPU, keys alone and pairs, outputs poisoned.
  auto d_keys = bkt::to_device<T>(keys, stream);
  auto d_values = bkt::to_device<V>(values, stream);
  auto d_flags = bkt::to_device<std::uint8_t>(flags, stream);
  auto key_out = poisoned_buffer<T>(n, stream), key_only_out = poisoned_buffer<T>(n, stream);
  auto key_rejected = poisoned_buffer<T>(n, stream), key_only_rejected = poisoned_buffer<T>(n, stream);
  auto value_out = poisoned_buffer<V>(n, stream), value_rejected = poisoned_buffer<V>(n, stream);
  bkt::device_buffer<std::int64_t> counts(2, stream);
  BKT_CUDA_CHECK(cudaMemsetAsync(counts.data(), 0xff, counts.size_bytes(), stream));
  std::span<const T> in = d_keys.span();
  std::span<const V> vin = d_values.span();
  switch (o) {
    case op::select_if:
      bkt::select_if<T>(in, key_only_out.span(), counts.data(), pred, ws, stream);
      bkt::select_if<T, V>(in, vin, key_out.span(), value_out.span(), counts.data() + 1, pred, ws, stream);
      break;
    case op::select_flagged:
      bkt::select_flagged<T, std::uint8_t>(in, d_flags.span(), key_only_out.span(), counts.data(), ws, stream);
      bkt::select_flagged<T, V, std::uint8_t>(in, vin, d_flags.span(), key_out.span(), value_out.span(),
                                              counts.data() + 1, ws, stream);
      break;
    case op::partition:
      bkt::stable_partition<T>(in, key_only_out.span(), counts.data(), pred, ws, stream);
      bkt::stable_partition<T, V>(in, vin, key_out.span(), value_out.span(), counts.data() + 1, pred, ws, stream);
      break;
    case op::partition_split:
      bkt::stable_partition<T>(in, key_only_out.span(), key_only_rejected.span(), counts.data(), pred, ws, stream);
      bkt::stable_partition<T>(in, key_out.span(), key_rejected.span(), counts.data() + 1, pred, ws, stream);
      break;
  }
  const auto got_counts = to_host(counts);
  const auto got_key_only = to_host(key_only_out), got_keys = to_host(key_out);
  const auto got_values = to_host(value_out);
  ASSERT_EQ(got_counts[0], want_count) << name_of(o);
  ASSERT_EQ(got_counts[1], want_count) << name_of(o) << " (pairs)";
  const auto c = static_cast<std::size_t>(want_count);
  const std::span<const T> all_want(want_keys);
  if (o == op::partition) {
    EXPECT_TRUE(bitwise_equal<T>(all_want, got_key_only)) << name_of(o);
    EXPECT_TRUE(bitwise_equal<T>(all_want, got_keys)) << name_of(o) << " (pairs)";
    EXPECT_TRUE(bitwise_equal<V>(std::span<const V>(want_values), got_values)) << name_of(o) << " (values)";
    return;
  }
  EXPECT_TRUE(bitwise_equal<T>(all_want.first(c), std::span<const T>(got_key_only).first(c))) << name_of(o);
  EXPECT_TRUE(bitwise_equal<T>(all_want.first(c), std::span<const T>(got_keys).first(c))) << name_of(o);
  if (o == op::partition_split) {
    const auto rejected = to_host(key_only_rejected), rejected2 = to_host(key_rejected);
    const std::size_t r = keys.size() - c;
    EXPECT_TRUE(bitwise_equal<T>(all_want.subspan(c), std::span<const T>(rejected).first(r))) << "rejected";
    EXPECT_TRUE(bitwise_equal<T>(all_want.subspan(c), std::span<const T>(rejected2).first(r))) << "rejected";
    EXPECT_TRUE(poison_intact<T>(std::span<const T>(rejected).subspan(r)));
    EXPECT_TRUE(poison_intact<T>(std::span<const T>(got_keys).subspan(c)));
    return;
  }
  EXPECT_TRUE(bitwise_equal<V>(std::span<const V>(want_values).first(c), std::span<const V>(got_values).first(c)))
      << name_of(o) << " (values)";
  EXPECT_TRUE(poison_intact<T>(std::span<const T>(got_key_only).subspan(c))) << name_of(o);
  EXPECT_TRUE(poison_intact<T>(std::span<const T>(got_keys).subspan(c))) << name_of(o);
  EXPECT_TRUE(poison_intact<V>(std::span<const V>(got_values).subspan(c))) << name_of(o);
}

TYPED_TEST(compact_test, matches_reference_on_every_generator_and_size) {
  BKT_REQUIRE_GPU();
  using T = TypeParam;
  test_stream stream;
  bkt::workspace ws;
  const std::uint64_t s = seed();
  SCOPED_TRACE("BKT_TEST_SEED=" + std::to_string(s));
  for (const std::int64_t n : sizes())
    for (const auto& gen : sweep_generators<T>()) {
      const auto keys = gen.make(n, s + static_cast<std::uint64_t>(n));
      for (const int percent : quick_mode() ? std::vector<int>{1, 50} : std::vector<int>{0, 1, 50, 99, 100})
        for (const op o : {op::select_if, op::select_flagged, op::partition, op::partition_split}) {
          SCOPED_TRACE(gen.name + " n=" + std::to_string(n) + " keep=" + std::to_string(percent) + "%");
          if (sizeof(T) <= 4)
            check_against_reference<T, std::uint32_t>(o, keys, percent, s, ws, stream);
          else
            check_against_reference<T, std::uint64_t>(o, keys, percent, s, ws, stream);
          if (::testing::Test::HasFatalFailure()) return;
        }
    }
}

/// The plain C++ entry points (compiled into the library) agree with the templates.
TYPED_TEST(compact_test, library_instantiations_match_reference) {
  BKT_REQUIRE_GPU();
  using T = TypeParam;
  test_stream stream;
  bkt::workspace ws;
  const auto keys = generators<T>()[0].make(100003, seed());
  const bkt::compare_with<T> pred{bkt::compare_op::greater, T(0)};
  std::vector<T> want(keys.size());
  const auto want_count = bkt::ref::select_if<T>(keys, want, pred);
  auto d_keys = bkt::to_device<T>(keys, stream);
  auto out = poisoned_buffer<T>(static_cast<std::int64_t>(keys.size()), stream);
  bkt::device_buffer<std::int64_t> count(1, stream);
  bkt::select_if<T>(d_keys.span(), out.span(), count.data(), pred, ws, stream);
  ASSERT_EQ(bkt::read_sync(count.data(), stream), want_count);
  EXPECT_TRUE(bitwise_equal<T>(std::span<const T>(want).first(want_count),
                               std::span<const T>(to_host(out)).first(want_count)));

  std::vector<T> host_gpu(keys.size()), host_cpu(keys.size());
  EXPECT_EQ(bkt::host::stable_partition<T>(keys, host_gpu, pred, bkt::host::backend::gpu),
            bkt::host::stable_partition<T>(keys, host_cpu, pred, bkt::host::backend::cpu));
  EXPECT_TRUE(bitwise_equal<T>(host_cpu, host_gpu));
}

}  // namespace
