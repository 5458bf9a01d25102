// The run's control flow. Chunks are contiguous stretches of the input in order, so a stable sort
// of each followed by a merge that prefers the earlier chunk on ties is one stable sort of all.
#include "sort_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "bkt/gpu.hpp"
#include "buffer.hpp"
#include "bkt_apps/memory_limit.hpp"
#include "bkt_apps/output_file.hpp"
#include "bkt_apps/progress.hpp"
#include "bkt_apps/stopwatch.hpp"
#include "memory_plan.hpp"
#include "external_sort.hpp"
#include "sorted_output.hpp"
#include "read_chunk.hpp"
#include "spill_file.hpp"

namespace bkt::radixsort {
namespace {

/// Binary data on a terminal is unreadable and can leave it in a strange state: refused, as gzip
/// and zstd refuse it.
void refuse_binary_on_terminal(const options& parsed, apps::file_format input_format) {
  const apps::file_format format = apps::resolve_output_format(parsed.output, input_format);
  if (format == apps::file_format::text || !apps::is_standard_stream(parsed.output.path) || ::isatty(STDOUT_FILENO) != 1)
    return;
  throw apps::usage_error("<stdout>: will not write " + std::string(apps::file_format_name(format)) +
                          " data to a terminal; give -o FILE, redirect standard output, or --output-format text");
}

/// Whether the input can be read again from its start: a regular file, not a pipe or a terminal.
bool readable_twice(const std::string& path) {
  struct stat info {};
  return !apps::is_standard_stream(path) && ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

/// The device memory a chunk may plan for: what is free, or --gpu-memory when that is less.
std::int64_t device_budget(const options& parsed) {
  const std::int64_t free = current_device_info().free_memory_bytes;
  return parsed.gpu_memory > 0 ? std::min(free, parsed.gpu_memory) : free;
}

template <class Key>
class sort_run {
 public:
  sort_run(const options& parsed, apps::chunk_reader& reader, apps::output_file& output, sort_report& report)
      : parsed_(parsed), reader_(reader), output_(output), report_(report), on_gpu_(apps::use_gpu(parsed.common)) {
    sort_options_.order = parsed.descending ? sort_order::descending : sort_order::ascending;
    report_.device = apps::device_label(on_gpu_);
    host_budget_ = apps::host_memory_budget(parsed.common);
    apps::require_host_memory(host_budget_, 2 * fixed_host_bytes, reader.name(), "sorting");
    // --chunk-items caps what memory allows; it never raises it.
    std::int64_t items = host_chunk_items(host_budget_, sizeof(Key), parsed.argsort, !on_gpu_, reader.total_items());
    if (on_gpu_)
      items = std::min(items, device_chunk_items(device_budget(parsed), sizeof(Key), parsed.argsort,
                                                 sort_options_));
    if (parsed.chunk_items > 0) items = std::min(items, parsed.chunk_items);
    report_.chunk_items = chunk_items_ = items;
  }

  void run() {
    // The output file already exists as a temporary of the run's output set (so an unwritable
    // one failed before the work); its writer waits until the count is known, for the npy header.
    // One line on a terminal's stderr names the phase under way.
    const std::int64_t total = reader_.total_items().value_or(0);
    apps::progress_bar progress("read", total);
    buffer<Key> chunk;
    timed_read(chunk, progress);
    buffer<Key> next;
    // A chunk is the whole input when it is short, or when the input's known length is reached.
    const bool whole = static_cast<std::int64_t>(chunk.size()) < chunk_items_ ||
                       (total > 0 && static_cast<std::int64_t>(chunk.size()) >= total);
    if (!whole) timed_read(next, progress);
    if (next.empty()) {
      sort_one_chunk(chunk, progress);
      return;
    }
    sort_externally(chunk, next, progress);
  }

 private:
  void sort_one_chunk(buffer<Key>& chunk, apps::progress_bar& progress) {
    report_.elements = static_cast<std::int64_t>(chunk.size());
    report_.chunks = chunk.empty() ? 0 : 1;
    buffer<std::int64_t> indices(parsed_.argsort ? chunk.size() : 0);
    if (!chunk.empty()) {  // an empty input sorts to an empty output, without touching the GPU
      progress.relabel("sort", report_.elements);
      // Both sorters sort the chunk in its own pages: a fresh buffer would take a page fault per
      // 4 KiB during the download, and the CPU sort brings its own scratch.
      sorter_for(chunk.size()).sort(chunk, chunk, indices, report_.sort);
    }
    write_sorted(chunk, indices, progress);
  }

  /// More than one chunk: external_sort.hpp. The input is read twice (a file again from its start;
  /// standard input or a pipe from a copy of its keys in the spill directory).
  void sort_externally(buffer<Key>& chunk, buffer<Key>& next, apps::progress_bar& progress) {
    const std::string directory = spill_directory(parsed_.spill_dir, parsed_.output.path);
    external_sort<Key> buckets(parsed_.descending, parsed_.argsort, chunk_items_, directory);
    std::optional<spill_file> copy;
    if (!readable_twice(parsed_.input.path)) copy.emplace(directory);
    std::int64_t total = 0;
    const auto sample = [&](buffer<Key>& keys) {
      buckets.sample(keys);
      if (copy) copy->append(keys.data(), keys.size() * sizeof(Key));
      total += static_cast<std::int64_t>(keys.size());
      ++report_.chunks;
    };
    progress.relabel("sample", reader_.total_items().value_or(0));
    sample(chunk);
    sample(next);
    buffer<Key>().swap(next);
    for (;;) {
      timed_read(chunk, progress);
      if (chunk.empty()) break;
      sample(chunk);
    }
    report_.elements = total;
    buckets.choose_splitters(total);

    apps::stopwatch start;
    progress.relabel("split", total);
    std::int64_t done = 0;
    if (copy) {
      for (; done < total; done += static_cast<std::int64_t>(chunk.size())) {
        chunk.resize(static_cast<std::size_t>(std::min(chunk_items_, total - done)));
        copy->read_at(done * static_cast<std::int64_t>(sizeof(Key)), chunk.data(), chunk.size() * sizeof(Key));
        buckets.split(chunk, done);
        progress.update(done);
      }
    } else {
      apps::chunk_reader again(parsed_.input);
      for (;;) {
        const apps::stopwatch read_start;
        read_chunk(again, chunk, chunk_items_, progress);
        report_.read_seconds += read_start.seconds();
        if (chunk.empty()) break;
        buckets.split(chunk, done);
        done += static_cast<std::int64_t>(chunk.size());
      }
      if (done != total)
        throw apps::app_error(reader_.name() + ": changed while being sorted (" + std::to_string(total) + " then " +
                        std::to_string(done) + " elements)");
    }
    buckets.finish_split();
    buffer<Key>().swap(chunk);
    report_.split_seconds = start.seconds();

    apps::array_writer& writer = output_with(total);
    sorted_output<Key> output(writer, parsed_.argsort, parsed_.unique);
    progress.relabel("sort", total);
    std::int64_t written = 0;
    double write_seconds = 0;
    report_.buckets = buckets.sort_buckets(
        sorter_for(static_cast<std::size_t>(chunk_items_)),
        [&] { return make_cpu_sorter<Key>(sort_options_); }, report_.sort,
        [&](const Key* keys, const std::int64_t* indices, std::int64_t count) {
          const apps::stopwatch write_start;
          output.write(keys, indices, count);
          write_seconds += write_start.seconds();
          written += count;
          progress.update(written);
        });
    start.restart();
    writer.finish();
    report_.output = writer.name();
    report_.output_elements = writer.items_written();
    report_.write_seconds += write_seconds + start.seconds();
  }

  void timed_read(buffer<Key>& chunk, apps::progress_bar& progress) {
    const apps::stopwatch start;
    read_chunk(reader_, chunk, chunk_items_, progress);
    report_.read_seconds += start.seconds();
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
    return apps::array_writer(output_, parsed_.output.order, format, type, parsed_.unique ? std::nullopt : expected);
  }

  /// The output's writer, made on first use.
  apps::array_writer& output_with(std::int64_t count) {
    if (!writer_) writer_.emplace(open_output(count));
    return *writer_;
  }

  void write_sorted(const buffer<Key>& keys, const buffer<std::int64_t>& indices, apps::progress_bar& progress) {
    const apps::stopwatch start;
    const auto count = static_cast<std::int64_t>(keys.size());
    apps::array_writer& writer = output_with(count);
    sorted_output<Key> output(writer, parsed_.argsort, parsed_.unique);
    progress.relabel("write", count);
    const std::int64_t slice = progress_slice_bytes / static_cast<std::int64_t>(sizeof(Key));
    for (std::int64_t done = 0; done < count; done += slice) {
      const std::int64_t items = std::min(slice, count - done);
      output.write(keys.data() + done, indices.empty() ? nullptr : indices.data() + done, items);
      progress.update(done + items);
    }
    writer.finish();
    report_.output = writer.name();
    report_.output_elements = writer.items_written();
    report_.write_seconds += start.seconds();
  }

  const options& parsed_;
  apps::chunk_reader& reader_;
  apps::output_file& output_;
  sort_report& report_;
  bool on_gpu_;
  radix_sort_options sort_options_;
  std::int64_t host_budget_ = 0;  // --max-memory, else the memory available when the run began
  std::int64_t chunk_items_ = 0;
  std::unique_ptr<chunk_sorter<Key>> sorter_;
  std::optional<apps::array_writer> writer_;
};

}  // namespace

sort_report sort_file(const options& parsed, apps::output_file& output) {
  const apps::stopwatch start;
  sort_report report;
  apps::chunk_reader reader(parsed.input);  // reads a header, or a text file once to choose its dtype
  refuse_binary_on_terminal(parsed, reader.format());
  report.read_seconds = start.seconds();
  report.input = reader.name();
  report.dtype = apps::dtype_name(reader.type());
  report.dtype_inferred = reader.type_inferred();
  apps::visit_dtype(reader.type(),
                    [&]<class Key>(std::type_identity<Key>) { sort_run<Key>(parsed, reader, output, report).run(); });
  report.total_seconds = start.seconds();
  return report;
}

}  // namespace bkt::radixsort
