// The run's control flow. Chunks are contiguous stretches of the input in order, so a stable sort
// of each followed by a merge that prefers the earlier chunk on ties is one stable sort of all.
#include "sort_file.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <vector>

#include "bkt/gpu.hpp"
#include "buffer.hpp"
#include "bkt_apps/progress.hpp"
#include "memory_plan.hpp"
#include "merge_runs.hpp"
#include "sorted_output.hpp"
#include "sorted_runs.hpp"

namespace bkt::radixsort {
namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point start) {
  return std::chrono::duration<double>(clock_type::now() - start).count();
}

bool is_regular_or_new_file(const std::string& path) {
  struct stat info {};
  return !apps::is_standard_stream(path) && (::stat(path.c_str(), &info) != 0 || S_ISREG(info.st_mode));
}

/// Reads up to `max_items` keys into `chunk`, growing it as the data comes (a text input's length
/// is not known ahead, and a small input should not cost a chunk-sized allocation).
template <class Key>
void read_chunk(apps::chunk_reader& reader, buffer<Key>& chunk, std::int64_t max_items) {
  chunk.clear();
  std::int64_t capacity = std::min<std::int64_t>(max_items, reader.total_items().value_or(1 << 16));
  for (;;) {
    const auto used = static_cast<std::int64_t>(chunk.size());
    capacity = std::max(capacity, used + 1);
    chunk.resize(static_cast<std::size_t>(capacity));
    const std::int64_t got =
        reader.read_into(std::span<Key>(chunk.data() + used, static_cast<std::size_t>(capacity - used)));
    chunk.resize(static_cast<std::size_t>(used + got));
    // Done at the end of the input: a read past a known length would only grow the chunk (and
    // copy it) to learn that nothing is left.
    const auto total = reader.total_items();
    if (got == 0 || used + got == max_items || (total && reader.items_read() >= *total)) return;
    capacity = std::min(max_items, 2 * capacity);
  }
}

template <class Key>
class sort_run {
 public:
  sort_run(const options& parsed, apps::chunk_reader& reader, sort_report& report)
      : parsed_(parsed), reader_(reader), report_(report), on_gpu_(apps::use_gpu(parsed.common)) {
    sort_options_.order = parsed.descending ? sort_order::descending : sort_order::ascending;
    report_.device = apps::device_label(on_gpu_);
    const std::int64_t host_bytes = available_host_bytes();
    // --chunk-items caps what memory allows; it never raises it.
    std::int64_t items = host_chunk_items(host_bytes, sizeof(Key), parsed.argsort, !on_gpu_);
    if (on_gpu_)
      items = std::min(items, device_chunk_items(current_device_info().free_memory_bytes, sizeof(Key), parsed.argsort,
                                                 sort_options_));
    if (parsed.chunk_items > 0) items = std::min(items, parsed.chunk_items);
    report_.chunk_items = chunk_items_ = items;
    run_budget_ = run_memory_budget(host_bytes, items, sizeof(Key), parsed.argsort);
  }

  void run() {
    // A file output is opened first, so that an unwritable one fails before the work, not after;
    // its npy header is rewritten at the end. Streams (standard output, devices, pipes) wait
    // until the count is known, since an npy header cannot be rewritten there.
    if (is_regular_or_new_file(parsed_.output.path)) writer_.emplace(open_output(std::nullopt));
    apps::progress_bar progress("sort", reader_.total_items().value_or(0));
    buffer<Key> chunk;
    timed_read(chunk);
    if (chunk.empty()) {  // an empty input sorts to an empty output, without touching the GPU
      write_sorted(chunk, {});
      return;
    }
    std::optional<run_store<Key>> runs;
    std::int64_t base = 0;
    while (true) {
      buffer<std::int64_t> indices(parsed_.argsort ? chunk.size() : 0);
      buffer<Key> keys;
      if (on_gpu_) {
        // The GPU sorter has uploaded the chunk before it downloads, so the sorted keys go back
        // into the chunk's own pages: a fresh buffer would take a page fault per 4 KiB during the
        // download (3.1 s for a 4 GiB chunk on the H100 host, against 0.55 s for the upload).
        sorter_for(chunk.size()).sort(chunk, chunk, indices, report_.sort);
        keys = std::move(chunk);
        chunk = buffer<Key>();
      } else {
        keys.resize(chunk.size());
        sorter_for(keys.size()).sort(chunk, keys, indices, report_.sort);
      }
      for (auto& index : indices) index += base;  // chunk positions -> input positions
      base += static_cast<std::int64_t>(keys.size());
      ++report_.chunks;
      progress.update(base);
      const bool last = static_cast<std::int64_t>(keys.size()) < chunk_items_;
      if (last)
        chunk.clear();
      else
        timed_read(chunk);
      if (chunk.empty() && !runs) {  // one chunk held it all: no merge
        report_.elements = base;
        write_sorted(keys, indices);
        return;
      }
      if (!runs) runs.emplace(run_budget_, parsed_.spill, spill_directory(parsed_.spill_dir, parsed_.output.path));
      runs->add(std::move(keys), std::move(indices));
      if (chunk.empty()) break;
    }
    report_.elements = base;
    report_.spilled_runs = runs->spilled_runs();
    progress.relabel("merge", base);
    merge(*runs, progress);
  }

 private:
  void timed_read(buffer<Key>& chunk) {
    const auto start = clock_type::now();
    read_chunk(reader_, chunk, chunk_items_);
    report_.read_seconds += seconds_since(start);
  }

  /// The GPU sorter is made on first use, sized for the first chunk when that is all there is.
  chunk_sorter<Key>& sorter_for(std::size_t first_chunk_items) {
    if (!sorter_)
      sorter_ = on_gpu_ ? make_gpu_sorter<Key>(sort_options_,
                                               std::max<std::int64_t>(static_cast<std::int64_t>(first_chunk_items), 1),
                                               parsed_.argsort)
                        : make_cpu_sorter<Key>(sort_options_);
    return *sorter_;
  }

  apps::array_writer open_output(std::optional<std::int64_t> expected) {
    const apps::file_format format = apps::resolve_output_format(parsed_.output, reader_.format());
    const apps::dtype type = parsed_.argsort ? apps::dtype::i64 : apps::dtype_of<Key>();
    return apps::array_writer(parsed_.output, format, type, parsed_.unique ? std::nullopt : expected);
  }

  /// The output, opened now if run() did not open it already.
  apps::array_writer& output_with(std::int64_t count) {
    if (!writer_) writer_.emplace(open_output(count));
    return *writer_;
  }

  void write_sorted(const buffer<Key>& keys, const buffer<std::int64_t>& indices) {
    const auto start = clock_type::now();
    apps::array_writer& writer = output_with(static_cast<std::int64_t>(keys.size()));
    sorted_output<Key> output(writer, parsed_.argsort, parsed_.unique);
    output.write(keys.data(), indices.data(), static_cast<std::int64_t>(keys.size()));
    writer.finish();
    report_.output = writer.name();
    report_.output_elements = writer.items_written();
    report_.write_seconds += seconds_since(start);
  }

  void merge(const run_store<Key>& runs, apps::progress_bar& progress) {
    const auto start = clock_type::now();
    apps::array_writer& writer = output_with(report_.elements);
    sorted_output<Key> output(writer, parsed_.argsort, parsed_.unique);
    // Read-back blocks: 1 MiB per spilled run, fewer when there are many runs.
    const std::int64_t run_count = static_cast<std::int64_t>(runs.runs().size());
    const std::int64_t read_block =
        std::clamp<std::int64_t>((std::int64_t{256} << 20) / run_count / static_cast<std::int64_t>(sizeof(Key) + 8),
                                 1024, std::int64_t{1} << 17);
    std::int64_t merged = 0;
    double write_seconds = 0;
    merge_runs(runs, sort_options_, parsed_.argsort, read_block, std::int64_t{1} << 16,
               [&](const Key* keys, const std::int64_t* indices, std::int64_t count) {
                 const auto write_start = clock_type::now();
                 output.write(keys, indices, count);
                 write_seconds += seconds_since(write_start);
                 merged += count;
                 progress.update(merged);
               });
    const auto finish_start = clock_type::now();
    writer.finish();
    write_seconds += seconds_since(finish_start);
    report_.output = writer.name();
    report_.output_elements = writer.items_written();
    report_.write_seconds += write_seconds;
    report_.merge_seconds += seconds_since(start) - write_seconds;
  }

  const options& parsed_;
  apps::chunk_reader& reader_;
  sort_report& report_;
  bool on_gpu_;
  radix_sort_options sort_options_;
  std::int64_t chunk_items_ = 0;
  std::int64_t run_budget_ = 0;
  std::unique_ptr<chunk_sorter<Key>> sorter_;
  std::optional<apps::array_writer> writer_;  // destroyed unfinished on failure: no output is left
};

}  // namespace

sort_report sort_file(const options& parsed) {
  const auto start = clock_type::now();
  sort_report report;
  apps::chunk_reader reader(parsed.input);
  report.input = reader.name();
  report.dtype = apps::dtype_name(reader.type());
  apps::visit_dtype(reader.type(),
                    [&]<class Key>(std::type_identity<Key>) { sort_run<Key>(parsed, reader, report).run(); });
  report.total_seconds = seconds_since(start);
  return report;
}

}  // namespace bkt::radixsort
