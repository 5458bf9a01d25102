// Host memory a run will hold, worked out before it allocates: the bins (counts, edges, and each
// output's text, which is built whole before it is written) and the chunk buffers. A run that
// would not fit the memory available, or --max-memory, is refused at once.
#pragma once

#include <cstdint>
#include <string>

#include "bkt_apps/dtype.hpp"
#include "options.hpp"

namespace bkt::apps::histogram {

/// Estimated host bytes of a run with `bins` bins over data of type `data`, read `chunk_items` at a time.
std::int64_t planned_host_bytes(const options& opts, std::int64_t bins, dtype data, std::int64_t chunk_items);

/// Throws app_error "SUBJECT: a histogram of N bins needs X of host memory, more than the Y
/// available (--max-memory)" when the plan does not fit. `subject` is "--bins N" or the edges file.
void require_memory_for_bins(const options& opts, std::int64_t bins, dtype data, std::int64_t chunk_items,
                             const std::string& subject);

}  // namespace bkt::apps::histogram
