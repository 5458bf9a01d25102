// Device-level radix sort: one counting read for every pass's digits, one scan of all the digit
// counts, then one multisplit scatter pass per digit, alternating between two buffers.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <type_traits>

#include "bkt/detail/multisplit/dispatch.cuh"
#include "bkt/detail/radix_sort/digit_count_kernel.cuh"
#include "bkt/detail/radix_sort/plan.hpp"
#include "bkt/error.hpp"

namespace bkt::detail::radix_sort {

using multisplit::index_value;
using multisplit::no_value;
template <class Value>
using stored_value = typename multisplit::value_traits<Value>::stored;

/// Where one pass writes; keys null: the pass writes no keys (the last pass of an argsort that
/// wants no keys).
template <class Key, class Value>
struct pass_target {
  Key* keys;
  stored_value<Value>* values;
};

/// Runs every pass of `plan`. Pass 0 reads keys_in (and values_in), pass p writes target(p), and
/// pass p + 1 reads what pass p wrote. Value: no_value, a value word, or index_value<Index>
/// (pass 0 generates the positions, later passes move them as values).
template <class Key, class Value, class Target>
void run_passes(const pass_plan& plan, std::int64_t num_items, const Key* keys_in, const stored_value<Value>* values_in,
                Target target, void* scratch, const sort_layout& layout, cudaStream_t stream) {
  if (num_items == 0) return;
  using later_value = std::conditional_t<multisplit::value_traits<Value>::present, stored_value<Value>, no_value>;
  const int stride = plan.digit_stride();
  auto* totals = slice_at<unsigned long long>(scratch, layout.totals);
  auto* offsets = slice_at<std::int64_t>(scratch, layout.offsets);
  auto* lone_buckets = slice_at<int>(scratch, layout.lone_buckets);
  auto* tile_counter = slice_at<unsigned>(scratch, layout.pass_state);
  void* status = slice_at<void>(scratch, layout.status);

  BKT_CUDA_CHECK(cudaMemsetAsync(totals, 0, sizeof(*totals) * static_cast<std::size_t>(plan.passes * stride), stream));
  launch_digit_count(keys_in, num_items, plan, totals, stream);
  multisplit::launch_bucket_offsets(totals, stride, offsets, lone_buckets, stream, plan.passes);

  const Key* keys = keys_in;
  const stored_value<Value>* values = values_in;
  for (int pass = 0; pass < plan.passes; ++pass) {
    const pass_target<Key, Value> out = target(pass);
    BKT_CUDA_CHECK(cudaMemsetAsync(tile_counter, 0, layout.pass_state_bytes, stream));
    const std::int64_t* pass_offsets = offsets + static_cast<std::int64_t>(pass) * (stride + 1);
    const int buckets = 1 << plan.num_bits[pass];
    if (pass == 0)
      multisplit::launch_scatter(multisplit::split_pointers<Key, Value>{keys, values, out.keys, out.values}, num_items,
                                 pass_offsets, lone_buckets + pass, buckets, plan.digit<Key>(pass), status,
                                 tile_counter, stream);
    else
      multisplit::launch_scatter(multisplit::split_pointers<Key, later_value>{keys, values, out.keys, out.values},
                                 num_items, pass_offsets, lone_buckets + pass, buckets, plan.digit<Key>(pass), status,
                                 tile_counter, stream);
    keys = out.keys;
    values = out.values;
  }
}

/// A sort into separate outputs: the last pass writes (keys_out, values_out), the passes before
/// alternate with the spare buffers in the workspace. keys_out null (argsort without keys) makes
/// the keys alternate between two spares and the last pass write none.
template <class Key, class Value>
void sort_separate(const Key* keys_in, const stored_value<Value>* values_in, Key* keys_out,
                   stored_value<Value>* values_out, std::int64_t num_items, const radix_sort_options& options,
                   workspace& ws, cudaStream_t stream) {
  const pass_plan plan = make_plan(sizeof(Key), options);
  const auto form = keys_out == nullptr ? radix_sort_form::indices_only : radix_sort_form::separate_output;
  const sort_layout layout = make_layout(num_items, sizeof(Key), multisplit::value_bytes<Value>, plan, form);
  void* scratch = ws.reserve(layout.total, stream);
  Key* spare_keys[2] = {slice_at<Key>(scratch, layout.keys[0]), slice_at<Key>(scratch, layout.keys[1])};
  auto* spare_values = slice_at<stored_value<Value>>(scratch, layout.values);
  const int last = plan.passes - 1;
  auto target = [&](int pass) -> pass_target<Key, Value> {
    const bool to_output = (last - pass) % 2 == 0;
    Key* keys = keys_out == nullptr ? (pass == last ? nullptr : spare_keys[pass % 2]) : to_output ? keys_out : spare_keys[0];
    return {keys, to_output ? values_out : spare_values};
  };
  run_passes<Key, Value>(plan, num_items, keys_in, values_in, target, scratch, layout, stream);
}

/// A sort within two buffers: pass p writes the buffer pass p - 1 read. Returns the index of the
/// buffer that holds the result.
template <class Key, class Value>
int sort_double_buffer(Key* const (&keys)[2], stored_value<Value>* const (&values)[2], int current,
                       std::int64_t num_items, const radix_sort_options& options, workspace& ws, cudaStream_t stream) {
  const pass_plan plan = make_plan(sizeof(Key), options);
  const sort_layout layout =
      make_layout(num_items, sizeof(Key), multisplit::value_bytes<Value>, plan, radix_sort_form::double_buffer);
  void* scratch = ws.reserve(layout.total, stream);
  auto target = [&](int pass) -> pass_target<Key, Value> {
    const int buffer = (current + pass + 1) % 2;
    return {keys[buffer], values[buffer]};
  };
  run_passes<Key, Value>(plan, num_items, keys[current], values[current], target, scratch, layout, stream);
  return num_items == 0 ? current : (current + plan.passes) % 2;
}

}  // namespace bkt::detail::radix_sort
