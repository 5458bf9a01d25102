// sort_on_ranks: read a part, agree, sort across the ranks, write a slice, agree.
//
// Every step that can fail on one rank alone (reading its part, allocating its buffers, writing
// its slice) is followed by an agreement before the next collective step, so that no rank waits in
// NCCL for a rank that has failed: the failing rank's message reaches rank 0, every rank exits
// with its code, and the shared temporary output is removed.
#include "sort_on_ranks.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include "bkt/device_buffer.hpp"
#include "bkt/dist/communicator.hpp"
#include "bkt/dist/sort.hpp"
#include "bkt/error.hpp"
#include "bkt/gpu.hpp"
#include "bkt/stream.hpp"
#include "bkt_apps/array_part.hpp"
#include "bkt_apps/memory_limit.hpp"
#include "bkt_apps/stopwatch.hpp"
#include "buffer.hpp"
#include "read_chunk.hpp"
#include "summary.hpp"

namespace bkt::radixsort {
namespace {

/// Refuses what a run over several ranks cannot do, the same way on every rank.
void check_options_for_ranks(const options& parsed) {
  if (apps::is_standard_stream(parsed.input.path))
    throw apps::usage_error("<stdin>: several ranks read one file, each its own part; give an INPUT file");
  if (apps::is_standard_stream(parsed.output.path))
    throw apps::usage_error("<stdout>: several ranks write one file, each its own slice; give -o FILE");
  if (parsed.chunk_items > 0 || parsed.gpu_memory > 0)
    throw apps::usage_error("--chunk-items and --gpu-memory apply to one process; under mpirun each rank sorts its "
                            "part on its GPU");
  if (!apps::use_gpu(parsed.common))
    throw apps::usage_error("several ranks sort on one GPU each; run one process for the CPU path");
}

/// Drops every key whose bits equal those of the key before it, the one before the first being
/// `previous` (the last key of the nearest earlier rank that holds any; empty for none).
template <class Key>
void keep_first_of_equal_runs(buffer<Key>& keys, buffer<std::int64_t>& indices, const std::string& previous) {
  bool have_last = previous.size() == sizeof(Key);
  Key last{};
  if (have_last) std::memcpy(&last, previous.data(), sizeof(Key));
  std::size_t kept = 0;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (have_last && std::memcmp(&last, &keys[i], sizeof(Key)) == 0) continue;
    last = keys[i];
    have_last = true;
    if (!indices.empty()) indices[kept] = indices[i];
    keys[kept++] = keys[i];
  }
  keys.resize(kept);
  if (!indices.empty()) indices.resize(kept);
}

template <class Key>
class ranks_sort {
 public:
  ranks_sort(const options& parsed, apps::chunk_reader& reader, apps::rank_context& ranks, sort_report& report)
      : parsed_(parsed), reader_(reader), ranks_(ranks), report_(report) {}

  void run(const apps::output_file* sorted) {
    apps::stopwatch start;
    // A raw or npy part knows its length; the sorted slice is at most about 2 % longer
    // (dist::sort_capacity), and 1/16 more covers it.
    // The sorted slice comes back into this buffer: growing it then would fault in fresh pages
    // during the download.
    const std::int64_t part_items = reader_.total_items().value_or(0);
    buffer<Key> keys;
    if (part_items > 0) keys.reserve(static_cast<std::size_t>(part_items + part_items / 16 + 4096));
    apps::progress_bar progress("read", part_items);
    read_chunk(reader_, keys, std::numeric_limits<std::int64_t>::max(), progress);
    report_.read_seconds += start.seconds();
    ranks_.require_all_succeeded();  // a bad part, or rank 0's outputs, fail every rank before any GPU work
    // Rank 0 made the output's temporary; the others write into it. A stream has none.
    const std::string temporary = ranks_.broadcast_from_root(sorted != nullptr ? sorted->temporary_path() : "");
    if (temporary.empty())
      throw apps::usage_error(parsed_.output.path + ": several ranks write one regular file, not a stream or device");

    const std::vector<std::int64_t> part_sizes = ranks_.all_gather(static_cast<std::int64_t>(keys.size()));
    report_.elements = std::accumulate(part_sizes.begin(), part_sizes.end(), std::int64_t{0});
    report_.part_elements = static_cast<std::int64_t>(keys.size());
    buffer<std::int64_t> indices;
    sort_on_gpus(keys, indices);
    ranks_.require_all_succeeded();

    if (parsed_.unique) {
      const std::string last =
          keys.empty() ? std::string() : std::string(reinterpret_cast<const char*>(&keys.back()), sizeof(Key));
      const std::vector<std::string> lasts = ranks_.all_gather(last);
      std::string previous;
      for (int r = 0; r < ranks_.rank(); ++r)
        if (!lasts[static_cast<std::size_t>(r)].empty()) previous = lasts[static_cast<std::size_t>(r)];
      keep_first_of_equal_runs(keys, indices, previous);
    }
    start.restart();
    write_slice(keys, indices, temporary);
    report_.write_seconds += start.seconds();
    ranks_.require_all_succeeded();  // before rank 0 gathers the reports
  }

 private:
  void sort_on_gpus(buffer<Key>& keys, buffer<std::int64_t>& indices) {
    owned_stream stream;
    dist::sort_options sort_options;
    sort_options.order = parsed_.descending ? sort_order::descending : sort_order::ascending;
    const std::int64_t capacity = dist::sort_capacity(report_.elements, ranks_.size(), sort_options);
    const auto count = static_cast<std::int64_t>(keys.size());
    report_.chunk_items = capacity;

    apps::stopwatch start;
    device_buffer<Key> keys_in(count, stream.get());
    device_buffer<Key> keys_out(capacity, stream.get());
    device_buffer<std::int64_t> indices_out(parsed_.argsort ? capacity : 0, stream.get());
    if (count > 0)
      BKT_CUDA_CHECK(cudaMemcpyAsync(keys_in.data(), keys.data(), keys.size() * sizeof(Key), cudaMemcpyHostToDevice,
                                     stream.get()));
    BKT_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
    report_.sort.upload += start.seconds();
    ranks_.require_all_succeeded();  // every rank holds its buffers before the collective sort

    const dist::communicator comm(MPI_COMM_WORLD);
    dist::workspace workspace;
    start.restart();
    const std::span<const Key> in(keys_in.data(), static_cast<std::size_t>(count));
    const std::span<Key> out(keys_out.data(), static_cast<std::size_t>(capacity));
    const dist::sort_result result =
        parsed_.argsort
            ? dist::sort_indices<Key, std::int64_t>(comm, in, out,
                                                     {indices_out.data(), static_cast<std::size_t>(capacity)},
                                                     workspace, stream.get(), sort_options)
            : dist::sort_keys<Key>(comm, in, out, workspace, stream.get(), sort_options);
    BKT_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
    report_.sort.sort += start.seconds();

    start.restart();
    keys.resize(static_cast<std::size_t>(result.count));
    if (result.count > 0)
      BKT_CUDA_CHECK(cudaMemcpyAsync(keys.data(), keys_out.data(), keys.size() * sizeof(Key), cudaMemcpyDeviceToHost,
                                     stream.get()));
    if (parsed_.argsort) {
      indices.resize(static_cast<std::size_t>(result.count));
      if (result.count > 0)
        BKT_CUDA_CHECK(cudaMemcpyAsync(indices.data(), indices_out.data(), indices.size() * sizeof(std::int64_t),
                                       cudaMemcpyDeviceToHost, stream.get()));
    }
    BKT_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
    report_.sort.download += start.seconds();
  }

  /// This rank's elements go at the sum of the earlier ranks' bytes; rank 0 writes the header.
  void write_slice(const buffer<Key>& keys, const buffer<std::int64_t>& indices, const std::string& temporary) {
    const apps::file_format format = apps::resolve_output_format(parsed_.output, reader_.format());
    const apps::dtype type = parsed_.argsort ? apps::dtype::i64 : apps::dtype_of<Key>();
    const void* data = parsed_.argsort ? static_cast<const void*>(indices.data()) : static_cast<const void*>(keys.data());
    const auto count = static_cast<std::int64_t>(keys.size());
    const std::int64_t element_bytes = apps::fixed_element_bytes(format, type);
    const std::int64_t my_bytes = element_bytes > 0 ? count * element_bytes : apps::text_bytes(data, count, type);
    const std::vector<std::int64_t> counts = ranks_.all_gather(count);
    const std::vector<std::int64_t> bytes = ranks_.all_gather(my_bytes);
    const std::int64_t total = std::accumulate(counts.begin(), counts.end(), std::int64_t{0});
    const std::string prefix = apps::array_prefix(format, type, total);
    const auto rank = static_cast<std::size_t>(ranks_.rank());
    const std::int64_t first_byte =
        static_cast<std::int64_t>(prefix.size()) + std::accumulate(bytes.begin(), bytes.begin() + rank, std::int64_t{0});

    apps::array_part_writer writer(temporary, parsed_.output.path, format, parsed_.output.order, type,
                                   ranks_.is_root() ? 0 : first_byte);
    if (ranks_.is_root()) writer.write_bytes(prefix.data(), static_cast<std::int64_t>(prefix.size()));
    writer.write(data, count);
    writer.finish();
    report_.output = parsed_.output.path;
    report_.output_elements = total;
    report_.slice_elements = count;
  }

  const options& parsed_;
  apps::chunk_reader& reader_;
  apps::rank_context& ranks_;
  sort_report& report_;
};

/// Rank 0's report gains every rank's phases, in rank order.
void gather_phases(sort_report& report, apps::rank_context& ranks) {
  const nlohmann::json mine = rank_phases_json(report, ranks.rank());
  const std::vector<std::string> all = ranks.gather_to_root(mine.dump());
  for (const std::string& text : all) report.ranks.push_back(nlohmann::json::parse(text));
}

}  // namespace

sort_report sort_on_ranks(const options& parsed, apps::output_file* sorted, apps::rank_context& ranks) {
  const apps::stopwatch start;
  check_options_for_ranks(parsed);
  apps::input_options input = parsed.input;
  input.part = {ranks.rank(), ranks.size()};
  sort_report report;
  apps::chunk_reader reader(input);
  report.read_seconds = start.seconds();
  report.input = reader.name();
  report.dtype = apps::dtype_name(reader.type());
  report.dtype_inferred = reader.type_inferred();
  report.device = apps::device_label(true);
  report.chunks = 1;
  apps::visit_dtype(reader.type(), [&]<class Key>(std::type_identity<Key>) {
    ranks_sort<Key>(parsed, reader, ranks, report).run(sorted);
  });
  report.total_seconds = start.seconds();
  gather_phases(report, ranks);
  return report;
}

}  // namespace bkt::radixsort
