// Pass plans and workspace sizes of radix sort (plain C++, so the sizes need no CUDA compiler).
#include "bkt/detail/radix_sort/plan.hpp"

#include <string>

#include "bkt/detail/arguments.hpp"

namespace bkt {
namespace detail::radix_sort {

pass_plan make_plan(std::size_t key_bytes, const radix_sort_options& options) {
  const int key_bits = 8 * static_cast<int>(key_bytes);
  const int end_bit = options.end_bit < 0 ? key_bits : options.end_bit;
  if (options.begin_bit < 0 || end_bit > key_bits || options.begin_bit > end_bit)
    throw_argument("radix_sort: bit range [" + std::to_string(options.begin_bit) + ", " + std::to_string(end_bit) +
                   ") does not lie within the key's " + std::to_string(key_bits) + " bits");
  if (options.digit_bits < 0 || options.digit_bits > max_digit_bits)
    throw_argument("radix_sort: digit_bits " + std::to_string(options.digit_bits) + " is not within 0 to 8");
  pass_plan plan;
  plan.descending = options.order == sort_order::descending;
  const int sort_bits = end_bit - options.begin_bit;
  if (sort_bits == 0) {
    plan.passes = 1;  // zero bits: one bucket, a stable copy
    plan.first_bit[0] = options.begin_bit;
    return plan;
  }
  const int width = options.digit_bits > 0 ? options.digit_bits : max_digit_bits;
  plan.passes = (sort_bits + width - 1) / width;
  int first = options.begin_bit;
  for (int pass = 0; pass < plan.passes; ++pass) {
    // Chosen widths: the bits spread evenly (low passes take the remainder), since a pass with
    // fewer buckets runs faster. Explicit widths: as asked, the last pass takes what is left.
    int bits = width;
    if (options.digit_bits == 0) bits = sort_bits / plan.passes + (pass < sort_bits % plan.passes ? 1 : 0);
    if (first + bits > end_bit) bits = end_bit - first;
    plan.first_bit[pass] = first;
    plan.num_bits[pass] = bits;
    plan.widest = bits > plan.widest ? bits : plan.widest;
    first += bits;
  }
  return plan;
}

sort_layout make_layout(std::int64_t num_items, std::size_t key_bytes, std::size_t value_bytes, const pass_plan& plan,
                        radix_sort_form form) {
  const auto n = static_cast<std::size_t>(num_items);
  const auto passes = static_cast<std::size_t>(plan.passes);
  const auto stride = static_cast<std::size_t>(plan.digit_stride());
  const auto scatter = multisplit::single_pass_workspace(num_items, plan.digit_stride(), key_bytes, value_bytes);
  workspace_layout carve;
  sort_layout layout;
  layout.totals = carve.add(passes * stride * sizeof(std::uint64_t));
  layout.offsets = carve.add(passes * (stride + 1) * sizeof(std::int64_t));
  layout.lone_buckets = carve.add(passes * sizeof(int));
  // One slice for the tile counter and the status words, so that one memset clears both.
  layout.pass_state_bytes = scatter.total - scatter.tile_counter;
  layout.pass_state = carve.add(layout.pass_state_bytes);
  layout.status = layout.pass_state + (scatter.status - scatter.tile_counter);
  // Spare buffers: the separate-output form alternates between the output and one spare (none
  // for a single pass); the index form without a key output alternates its keys between two
  // spares (the last pass writes no keys); the double-buffer form needs none.
  const bool spare = form != radix_sort_form::double_buffer && plan.passes > 1;
  layout.keys[0] = carve.add(spare ? n * key_bytes : 0);
  layout.keys[1] = carve.add(form == radix_sort_form::indices_only && plan.passes > 2 ? n * key_bytes : 0);
  layout.values = carve.add(spare ? n * value_bytes : 0);
  layout.total = carve.total_bytes();
  return layout;
}

}  // namespace detail::radix_sort

int radix_sort_passes(std::size_t key_bytes, const radix_sort_options& options) {
  return detail::radix_sort::make_plan(key_bytes, options).passes;
}

std::size_t radix_sort_workspace_bytes(std::int64_t num_items, std::size_t key_bytes, std::size_t value_bytes,
                                       const radix_sort_options& options, radix_sort_form form) {
  const auto plan = detail::radix_sort::make_plan(key_bytes, options);
  return detail::radix_sort::make_layout(num_items, key_bytes, value_bytes, plan, form).total;
}

}  // namespace bkt
