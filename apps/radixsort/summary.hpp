// The run's report as --json and --verbose show it.
#pragma once

#include <nlohmann/json.hpp>

#include "sort_file.hpp"

namespace bkt::radixsort {

/// {tool, version, input, output, dtype, dtype_inferred, elements, output_elements, device, chunks, chunk_items,
///  buckets, seconds: {read, upload, sort, download, split, write, total}, elements_per_second}, and
/// under mpirun `ranks`: one rank_phases_json per rank
nlohmann::json summary_json(const sort_report& report);

/// One rank's share under mpirun: {rank, part_elements, slice_elements, seconds: {read, upload,
/// sort, download, write}}; the sort's seconds include the exchange between the GPUs.
nlohmann::json rank_phases_json(const sort_report& report, int rank);

/// One line per phase on stderr.
void print_verbose_summary(const sort_report& report);

}  // namespace bkt::radixsort
