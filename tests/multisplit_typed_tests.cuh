// The multisplit sweep as a type-parameterized suite: GPU multisplit against bkt::ref over every
// generator and size, with each shipped bucket functor and user functors, in every mode (keys,
// pairs, index mode). multisplit_test_*.cu instantiate it for a few key types each, so the key
// types compile in parallel rather than in one slow translation unit.
#pragma once

#include <gtest/gtest.h>

#include <numeric>

#include "bkt/multisplit.cuh"
#include "bkt/ref/multisplit.hpp"
#include "support/buckets.hpp"
#include "support/device_run.hpp"
#include "support/generators.hpp"
#include "support/multisplit_run.cuh"

// Everything here has internal linkage, as in a single test file: each including file gets its own
// copy of the fixture, the helpers and gtest's per-suite registration state, so no definition
// crosses translation units and each file's INSTANTIATE_TYPED_TEST_SUITE_P registers only its types.
namespace {

using namespace bkt::test;

template <class T>
class multisplit_test : public ::testing::Test {};
TYPED_TEST_SUITE_P(multisplit_test);

/// A user functor as an extended __device__ lambda, with its host twin for the reference:
/// (radix bits of the key) % 13, so every type spreads over 13 buckets.
template <class T>
void check_device_lambda(const std::vector<T>& keys, bkt::workspace& ws, cudaStream_t stream) {
  const auto on_device = [] __device__(const T& key) -> int { return static_cast<int>(bkt::detail::radix_bits(key) % 13u); };
  const auto on_host = [](const T& key) { return static_cast<int>(bkt::detail::radix_bits(key) % 13u); };
  check_multisplit<T, std::uint32_t>(keys, 13, on_device, on_host, keys_only | index64_no_keys, ws, stream);
}

TYPED_TEST_P(multisplit_test, matches_reference_on_every_generator_and_size) {
  BKT_REQUIRE_GPU();
  using T = TypeParam;
  using V = std::conditional_t<sizeof(T) <= 4, std::uint32_t, std::uint64_t>;  // the value word of the key's width
  using W = std::conditional_t<sizeof(T) <= 4, std::uint64_t, std::uint32_t>;  // and of the other width
  using F = std::conditional_t<sizeof(T) <= 4, float, double>;                 // floating-point values
  test_stream stream;
  bkt::workspace ws;
  const std::uint64_t s = seed();
  SCOPED_TRACE("BKT_TEST_SEED=" + std::to_string(s));
  const auto splitters = sorted_splitters<T>(37, s), many_splitters = sorted_splitters<T>(255, s + 1);
  auto d_splitters = bkt::to_device<T>(splitters, stream), d_many = bkt::to_device<T>(many_splitters, stream);
  const bkt::splitter_buckets<T> host_split{splitters.data(), 37}, device_split{d_splitters.data(), 37};
  const bkt::splitter_buckets<T> host_many{many_splitters.data(), 255}, device_many{d_many.data(), 255};
  const auto middle = middle_digit<T>(), top = top_digit<T>();
  const auto delta = delta_for<T>();

  for (const std::int64_t n : sizes())
    for (const auto& gen : sweep_generators<T>()) {
      SCOPED_TRACE(gen.name + " n=" + std::to_string(n));
      const auto keys = gen.make(n, s + static_cast<std::uint64_t>(n));
      {
        SCOPED_TRACE("middle digit");
        // A cheap functor: the write phase recomputes buckets from staged keys, also where no key
        // is written out (index64_no_keys).
        check_multisplit<T, V>(keys, middle.num_buckets(), middle, middle,
                               keys_only | pairs | index32 | index64_no_keys, ws, stream);
      }
      {
        SCOPED_TRACE("top digit");
        check_multisplit<T, W>(keys, 256, top, top, keys_only | pairs, ws, stream);
      }
      {
        SCOPED_TRACE("delta buckets");
        check_multisplit<T, F>(keys, 97, delta, delta, keys_only | pairs | index64_no_keys, ws, stream);
      }
      {
        SCOPED_TRACE("37 splitters");
        check_multisplit<T, V>(keys, 38, device_split, host_split, keys_only | index64 | index32_no_keys, ws, stream);
      }
      {
        SCOPED_TRACE("255 splitters");
        check_multisplit<T, V>(keys, 256, device_many, host_many, keys_only | pairs, ws, stream);
      }
      {
        SCOPED_TRACE("user struct: key % 7 into 5 buckets, the rest clamped");
        check_multisplit<T, W>(keys, mod_seven_buckets, mod_seven{}, mod_seven{}, keys_only | pairs | index32, ws,
                               stream);
      }
      {
        SCOPED_TRACE("user __device__ lambda");
        check_device_lambda<T>(keys, ws, stream);
      }
      if (::testing::Test::HasFailure()) return;
    }
}

/// The host API (the library's explicit instantiations) on the GPU agrees with it on the CPU; the
/// splitters stay in host memory, and the GPU path copies them.
TYPED_TEST_P(multisplit_test, host_api_on_gpu_matches_the_cpu) {
  BKT_REQUIRE_GPU();
  using T = TypeParam;
  using V = std::conditional_t<sizeof(T) <= 4, float, double>;
  const std::uint64_t s = seed();
  SCOPED_TRACE("BKT_TEST_SEED=" + std::to_string(s));
  const auto splitters = sorted_splitters<T>(99, s);
  const bkt::splitter_buckets<T> by_splitter{splitters.data(), 99};  // host memory: the host API copies it
  for (const std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{100003}, std::int64_t{1} << 20})
    for (const auto& gen : sweep_generators<T>()) {
      SCOPED_TRACE(gen.name + " n=" + std::to_string(n));
      const auto keys = gen.make(n, s + static_cast<std::uint64_t>(n));
      std::vector<V> values(keys.size());
      std::iota(values.begin(), values.end(), V{0});
      const auto check = [&](int num_buckets, const auto& bucket_of) {
        std::vector<T> cpu(keys.size()), gpu(keys.size());
        std::vector<V> cpu_values(keys.size()), gpu_values(keys.size());
        std::vector<std::int64_t> cpu_offsets(num_buckets + 1), gpu_offsets(num_buckets + 1, -1);
        bkt::host::multisplit<T>(keys, cpu, cpu_offsets, num_buckets, bucket_of, bkt::host::backend::cpu);
        bkt::host::multisplit<T>(keys, gpu, gpu_offsets, num_buckets, bucket_of, bkt::host::backend::gpu);
        EXPECT_EQ(gpu_offsets, cpu_offsets);
        EXPECT_TRUE(bitwise_equal<T>(cpu, gpu));
        std::fill(gpu_offsets.begin(), gpu_offsets.end(), -1);
        bkt::host::multisplit<T, V>(keys, values, gpu, gpu_values, gpu_offsets, num_buckets, bucket_of,
                                    bkt::host::backend::gpu);
        bkt::host::multisplit<T, V>(keys, values, cpu, cpu_values, cpu_offsets, num_buckets, bucket_of,
                                    bkt::host::backend::cpu);
        EXPECT_EQ(gpu_offsets, cpu_offsets) << "pairs";
        EXPECT_TRUE(bitwise_equal<T>(cpu, gpu)) << "pairs";
        EXPECT_TRUE(bitwise_equal<V>(cpu_values, gpu_values)) << "pairs: values";
      };
      check(middle_digit<T>().num_buckets(), middle_digit<T>());
      check(97, delta_for<T>());
      check(100, by_splitter);
      if (::testing::Test::HasFailure()) return;
    }
}

REGISTER_TYPED_TEST_SUITE_P(multisplit_test, matches_reference_on_every_generator_and_size,
                            host_api_on_gpu_matches_the_cpu);

}  // namespace
