// Radix sort's option types (bkt/radix_sort.hpp has the calls and the order they sort in). Plain
// C++, no CUDA headers.
#pragma once

namespace bkt {

/// Ascending or descending; equal keys keep their input order either way.
enum class sort_order { ascending, descending };

/// Options of every radix sort call.
struct radix_sort_options {
  sort_order order = sort_order::ascending;
  /// Bits [begin_bit, end_bit) of the key's image take part; end_bit -1 means all of them.
  int begin_bit = 0;
  int end_bit = -1;
  /// Bits per pass, 1 to 8; 0 chooses: as few passes as 8-bit digits allow, with the bits spread
  /// evenly over them (fewer buckets make a faster pass; see docs/primitives/radix-sort.md).
  int digit_bits = 0;
};

/// Which call a workspace is sized for: a separate output (the sort keeps one spare copy of the
/// data in the workspace), the double-buffer form (no copy), or radix_sort_indices without a key
/// output (two spare copies of the keys).
enum class radix_sort_form { separate_output, double_buffer, indices_only };

}  // namespace bkt
