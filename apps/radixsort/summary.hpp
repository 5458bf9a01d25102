// The run's report as --json and --verbose show it.
#pragma once

#include <nlohmann/json.hpp>

#include "sort_file.hpp"

namespace bkt::radixsort {

/// {tool, version, input, output, dtype, dtype_inferred, elements, output_elements, device, chunks, chunk_items,
///  spilled_runs, seconds: {read, upload, sort, download, merge, write, total}, elements_per_second}
nlohmann::json summary_json(const sort_report& report);

/// One line per phase on stderr.
void print_verbose_summary(const sort_report& report);

}  // namespace bkt::radixsort
