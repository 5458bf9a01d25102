#include "memory_plan.hpp"

#include <algorithm>

#include "bkt_apps/memory_limit.hpp"
#include "render_plot.hpp"

namespace bkt::apps::histogram {
namespace {

// Per bin: the totals, a chunk's totals and their staging copy (8 bytes each), and the edges in
// the plan, the library's copy and the result (8 each).
constexpr std::int64_t numbers_per_bin = 6 * 8;
// Rendered text is held three times at its peak: a string stream that has doubled its buffer
// holds up to twice the text, and handing it on copies it once more.
constexpr std::int64_t text_copies = 3;
constexpr std::int64_t table_line = 64;  // two edges, a count, a fraction (56 bytes for 4M bins of a u32 range)
constexpr std::int64_t bars_line = 80 * 3 + 60;  // a bar of up to 80 three-byte blocks, its label and value
constexpr std::int64_t json_per_bin = 48 + 40;  // two JSON values of 16 bytes and more, and their text
constexpr std::int64_t plot_per_bin = 400;       // one bar's path in an SVG or PDF

}  // namespace

std::int64_t planned_host_bytes(const options& opts, std::int64_t bins, dtype data, std::int64_t chunk_items) {
  std::int64_t per_bin = numbers_per_bin;
  const bool json_replaces_table = opts.common.json_path == "-" && opts.output_path.empty();
  if (!json_replaces_table) per_bin += text_copies * (opts.bars ? bars_line : table_line);
  if (!opts.common.json_path.empty()) per_bin += text_copies * json_per_bin;
  std::int64_t total = bins * per_bin;
  if (!opts.plot_path.empty()) total += text_copies * plot_per_bin * std::min<std::int64_t>(bins, plot_max_bins);
  // Chunk buffers: the data, its f64 copy when the library does not bin its type, and the weights
  // with their f64 copy.
  const auto element = static_cast<std::int64_t>(dtype_size(data));
  const bool widened = data == dtype::f16 || (!dtype_is_float(data) && element == 8);
  std::int64_t per_item = element + (widened ? 8 : 0);
  if (opts.weighted()) per_item += 2 * 8;
  return total + chunk_items * per_item;
}

void require_memory_for_bins(const options& opts, std::int64_t bins, dtype data, std::int64_t chunk_items,
                             const std::string& subject) {
  require_host_memory(host_memory_budget(opts.common), planned_host_bytes(opts, bins, data, chunk_items), subject,
                      "a histogram of " + std::to_string(bins) + " bins");
}

}  // namespace bkt::apps::histogram
