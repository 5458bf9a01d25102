// Runs multisplit on the GPU from host data, in every mode, with poisoned outputs that reach past
// n (and offsets past num_buckets + 1), and compares with bkt::ref element for element.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "bkt/multisplit.cuh"
#include "bkt/ref/multisplit.hpp"
#include "checks.hpp"
#include "device_run.hpp"

namespace bkt::test {

/// Poisoned elements each output gets past what the call may write.
inline constexpr std::int64_t split_margin = 37;

/// Modes to run, as bits: keys alone, pairs (values = the input index, so stability is checked
/// exactly), and index mode with uint32 or int64 indices, with keys_out or with it empty.
enum split_mode : unsigned {
  keys_only = 1,
  pairs = 2,
  index32 = 4,
  index64 = 8,
  index32_no_keys = 16,
  index64_no_keys = 32,
  all_modes = 63,
};

/// The reference split: its permutation (int64 indices) and offsets.
struct expected_split {
  std::vector<std::int64_t> indices;
  std::vector<std::int64_t> offsets;
};

template <class Key, class HostFn>
expected_split reference_split(const std::vector<Key>& keys, int num_buckets, const HostFn& host_fn) {
  expected_split want{std::vector<std::int64_t>(keys.size()), std::vector<std::int64_t>(num_buckets + 1)};
  bkt::ref::multisplit_indices<Key, std::int64_t>(keys, {}, want.indices, want.offsets, num_buckets, host_fn);
  return want;
}

/// The first n elements of `got` are want[indices[j]] bit for bit; the margin still holds poison.
template <class T, class Source>
::testing::AssertionResult permuted_and_margin_intact(const std::vector<T>& got, const expected_split& want,
                                                      const Source& source) {
  const std::size_t n = want.indices.size();
  std::vector<T> expected(n);
  for (std::size_t j = 0; j < n; ++j) expected[j] = static_cast<T>(source(want.indices[j]));
  if (auto same = bitwise_equal<T>(expected, std::span<const T>(got).first(n)); !same) return same;
  return poison_intact<T>(std::span<const T>(got).subspan(n));
}

/// Offsets equal, and nothing written past num_buckets + 1.
inline ::testing::AssertionResult offsets_match(const std::vector<std::int64_t>& got, const expected_split& want) {
  const std::size_t count = want.offsets.size();
  for (std::size_t b = 0; b < count; ++b)
    if (got[b] != want.offsets[b])
      return ::testing::AssertionFailure() << "offset " << b << " of " << count - 1 << " buckets: want "
                                           << want.offsets[b] << ", got " << got[b];
  return poison_intact<std::int64_t>(std::span<const std::int64_t>(got).subspan(count));
}

/// Runs each mode in `modes` with `device_fn` on the GPU and checks it against the reference of
/// `host_fn` (the same functor, or its host twin when device_fn is a __device__ lambda). Values in
/// pair mode are of type Value, value i = i.
template <class Key, class Value, class DeviceFn, class HostFn>
void check_multisplit(const std::vector<Key>& keys, int num_buckets, DeviceFn device_fn, const HostFn& host_fn,
                      unsigned modes, workspace& ws, cudaStream_t stream) {
  const auto n = static_cast<std::int64_t>(keys.size());
  const auto want = reference_split(keys, num_buckets, host_fn);
  const auto key_at = [&](std::int64_t i) { return keys[static_cast<std::size_t>(i)]; };
  const auto index_at = [](std::int64_t i) { return i; };
  auto d_keys = bkt::to_device<Key>(keys, stream);
  const std::span<const Key> in = d_keys.span();
  const auto fresh_offsets = [&] { return poisoned_buffer<std::int64_t>(num_buckets + 1 + split_margin, stream); };

  if (modes & keys_only) {
    auto out = poisoned_buffer<Key>(n + split_margin, stream);
    auto offsets = fresh_offsets();
    bkt::multisplit<Key>(in, out.span(), offsets.span(), num_buckets, device_fn, ws, stream);
    EXPECT_TRUE(offsets_match(to_host(offsets), want)) << "keys";
    EXPECT_TRUE(permuted_and_margin_intact(to_host(out), want, key_at)) << "keys";
  }
  if (modes & pairs) {
    std::vector<Value> values(keys.size());
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<Value>(i);
    auto d_values = bkt::to_device<Value>(values, stream);
    auto out = poisoned_buffer<Key>(n + split_margin, stream);
    auto values_out = poisoned_buffer<Value>(n + split_margin, stream);
    auto offsets = fresh_offsets();
    bkt::multisplit<Key, Value>(in, d_values.span(), out.span(), values_out.span(), offsets.span(), num_buckets,
                                device_fn, ws, stream);
    EXPECT_TRUE(offsets_match(to_host(offsets), want)) << "pairs";
    EXPECT_TRUE(permuted_and_margin_intact(to_host(out), want, key_at)) << "pairs: keys";
    EXPECT_TRUE(permuted_and_margin_intact(to_host(values_out), want, index_at)) << "pairs: values";
  }
  const auto run_indices = [&]<class Index>(Index, bool with_keys, const char* what) {
    auto out = poisoned_buffer<Key>(with_keys ? n + split_margin : 0, stream);
    auto indices = poisoned_buffer<Index>(n + split_margin, stream);
    auto offsets = fresh_offsets();
    bkt::multisplit_indices<Key, Index>(in, with_keys ? out.span() : std::span<Key>(), indices.span(), offsets.span(),
                                        num_buckets, device_fn, ws, stream);
    EXPECT_TRUE(offsets_match(to_host(offsets), want)) << what;
    EXPECT_TRUE(permuted_and_margin_intact(to_host(indices), want, index_at)) << what << ": indices";
    if (with_keys) EXPECT_TRUE(permuted_and_margin_intact(to_host(out), want, key_at)) << what << ": keys";
  };
  if (modes & index32) run_indices(std::uint32_t{}, true, "uint32 indices");
  if (modes & index64) run_indices(std::int64_t{}, true, "int64 indices");
  if (modes & index32_no_keys) run_indices(std::uint32_t{}, false, "uint32 indices, no keys");
  if (modes & index64_no_keys) run_indices(std::int64_t{}, false, "int64 indices, no keys");
}

}  // namespace bkt::test
