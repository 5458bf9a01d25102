#include "compute.hpp"

#include <cstdio>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "bin_counter.hpp"
#include "bkt_apps/progress.hpp"
#include "bkt_apps/stopwatch.hpp"
#include "chunk_source.hpp"
#include "host_values.hpp"
#include "memory_plan.hpp"
#include "outside_split.hpp"
#include "rank_sum.hpp"

namespace bkt::apps::histogram {
namespace {

void say(const options& opts, const std::string& message) {
  if (opts.common.verbose) std::fprintf(stderr, "bkt-histogram: %s\n", message.c_str());
}

/// The most elements read at once: --chunk-items, but no more than the input holds when that is known.
std::int64_t largest_chunk(const options& opts, const chunk_source& data) {
  const auto total = data.total_items();
  return total ? std::max<std::int64_t>(1, std::min(opts.chunk_items, *total)) : opts.chunk_items;
}

/// Host buffers for one chunk of data (and weights). An input of unknown length (text, a pipe)
/// starts with small buffers that double while reads come back full, so that a short text file
/// does not allocate and zero --chunk-items elements.
class chunk_buffers {
 public:
  chunk_buffers(const options& opts, const chunk_source& data, bool widen, const chunk_source* weights)
      : limit_(largest_chunk(opts, data)), widen_(widen), weighted_(weights != nullptr) {
    const std::int64_t first = data.total_items() ? limit_ : std::min<std::int64_t>(limit_, 1 << 16);
    data_ = numeric_array(data.type(), 0);
    weights_ = numeric_array(weighted_ ? weights->type() : dtype::f64, 0);
    resize(first);
  }

  std::int64_t capacity() const { return data_.size(); }
  numeric_array& data() { return data_; }
  numeric_array& weights() { return weights_; }
  double* widened() { return widened_.data(); }
  double* weight_values() { return weight_values_.data(); }

  /// After a read of `count` elements: doubles the buffers when it filled them.
  void after_read(std::int64_t count) {
    if (count == capacity() && capacity() < limit_) resize(std::min(limit_, 2 * capacity()));
  }

 private:
  void resize(std::int64_t items) {
    data_.resize(items);
    if (widen_) widened_.resize(static_cast<std::size_t>(items));
    if (weighted_) {
      weights_.resize(items);
      weight_values_.resize(static_cast<std::size_t>(items));
    }
  }

  std::int64_t limit_;
  bool widen_, weighted_;
  numeric_array data_, weights_;
  std::vector<double> widened_, weight_values_;
};

/// The first pass when --range is not given: the finite min, max and smallest positive value.
data_extent scan_extent(const options& opts, chunk_source& data) {
  say(opts, "pass 1 of 2: the data's min and max");
  chunk_buffers buffers(opts, data, false, nullptr);
  progress_bar progress("range", data.total_items().value_or(0));
  data_extent extent;
  std::int64_t done = 0;
  while (const std::int64_t count = data.read(buffers.data().data(), buffers.capacity())) {
    extend(extent, data.type(), buffers.data().data(), count, data.first_item().value_or(0) + done, data.name());
    done += count;
    progress.update(done);
    buffers.after_read(count);
  }
  data.rewind();
  return extent;
}

std::vector<double> read_edges(const std::string& path) {
  // Edges are text (one per line) unless the file says .npy; as f64 whatever they are stored as.
  input_options edge_input;
  edge_input.path = path;
  edge_input.format = format_from_extension(path) == file_format::npy ? file_format::npy : file_format::text;
  const numeric_array stored = read_array(edge_input);
  std::vector<double> edges(static_cast<std::size_t>(stored.size()));
  widen_to_f64(stored.type(), stored.data(), stored.size(), edges.data(), 0, path);
  return edges;
}

/// The chunk buffers' size to plan for: an input of unknown length starts them small (chunk_buffers).
std::int64_t planned_chunk(const options& opts, const chunk_source& data) {
  return data.total_items() ? largest_chunk(opts, data) : std::min<std::int64_t>(opts.chunk_items, 1 << 16);
}

bin_plan make_plan(const options& opts, chunk_source& data, rank_context& ranks) {
  if (!opts.edges_path.empty()) {
    auto edges = read_edges(opts.edges_path);
    if (edges.size() >= 2)
      require_memory_for_bins(opts, static_cast<std::int64_t>(edges.size()) - 1, data.type(), planned_chunk(opts, data),
                              opts.edges_path);
    return plan_edges(data.type(), std::move(edges), opts.edges_path);
  }
  // Before the first pass over the data: a run that cannot hold its bins stops at once.
  require_memory_for_bins(opts, opts.bins, data.type(), planned_chunk(opts, data), "--bins " + std::to_string(opts.bins));
  if (opts.range_given()) {
    return opts.log ? plan_log(data.type(), opts.bins, *opts.range_lo, *opts.range_hi)
                    : plan_even(data.type(), opts.bins, *opts.range_lo, *opts.range_hi);
  }
  data_extent extent = scan_extent(opts, data);
  if (ranks.several()) {
    ranks.require_all_succeeded();  // every part scanned (or rank 0's outputs made) before they are merged
    extent = merge_over_ranks(extent, ranks);
  }
  return opts.log ? plan_log_from_extent(data.type(), opts.bins, extent, data.name())
                  : plan_even_from_extent(data.type(), opts.bins, extent, data.name());
}

/// Fails when the weights run out before the data does, or outlast it.
[[noreturn]] void weights_mismatch(const chunk_source& weights, const chunk_source& data, std::int64_t weights_read,
                                   bool more_weights) {
  throw app_error(weights.name() + ": " +
                  (more_weights ? "more weights than the " + std::to_string(weights_read) + " values in " + data.name()
                                : std::to_string(weights_read) + " weights for more values in " + data.name()) +
                  "; give one weight per value");
}

/// The second pass, in the type the plan bins in.
template <class T>
void count_all(const options& opts, chunk_source& data, chunk_source* weights, const bin_plan& plan, bool on_gpu,
               histogram_result& result) {
  const bin_spec<T> spec = bin_spec<T>::from(plan);
  const bool weighted = weights != nullptr;
  auto counter = on_gpu ? make_gpu_counter<T>(spec, weighted, largest_chunk(opts, data))
                        : make_cpu_counter<T>(spec, weighted);
  const bool widen = data.type() != dtype_of<T>();  // binned in f64 (binning.hpp says when)
  if (widen && !std::is_same_v<T, double>) throw std::logic_error("bkt-histogram: data can only be widened to f64");
  chunk_buffers buffers(opts, data, widen, weights);

  say(opts, std::string("binning in ") + std::string(dtype_name(plan.binned_as)) + " on the " + (on_gpu ? "GPU" : "CPU"));
  progress_bar progress("histogram", data.total_items().value_or(0));
  outside_tally tally;
  const std::int64_t first = data.first_item().value_or(0);  // for messages: the element's place in the input
  std::int64_t done = 0;
  while (const std::int64_t count = data.read(buffers.data().data(), buffers.capacity())) {
    const auto size = static_cast<std::size_t>(count);
    std::span<const T> chunk;
    if constexpr (std::is_same_v<T, double>) {
      if (widen) {
        widen_to_f64(data.type(), buffers.data().data(), count, buffers.widened(), first + done, data.name());
        chunk = std::span<const double>(buffers.widened(), size);
      }
    }
    if (!widen) chunk = buffers.data().as<T>().first(size);
    std::span<const double> chunk_weights;
    if (weighted) {
      const std::int64_t got = weights->read(buffers.weights().data(), count);
      if (got != count) weights_mismatch(*weights, data, done + got, false);
      weights_to_f64(weights->type(), buffers.weights().data(), count, buffers.weight_values(), first + done,
                     weights->name());
      chunk_weights = std::span<const double>(buffers.weight_values(), size);
    }
    counter->add(chunk, chunk_weights);
    split_outside(chunk, chunk_weights, spec, tally);  // on the host while the GPU bins the chunk
    done += count;
    progress.update(done);
    buffers.after_read(count);
  }
  if (weighted && weights->read(buffers.weights().data(), 1) != 0) weights_mismatch(*weights, data, done, true);
  counter->finish();
  // The library counts outside elements as one number; the host split them. They must agree.
  const std::int64_t split_total = tally.below + tally.above + tally.nan;
  if (!weighted && counter->outside_count != split_total)
    throw app_error(std::string(on_gpu ? "GPU" : "CPU") + " reported " + std::to_string(counter->outside_count) +
                        " values outside the bins, the host counted " + std::to_string(split_total),
                    on_gpu ? exit_gpu_failure : exit_bad_input);
  result.counts = std::move(counter->counts);
  result.sums = std::move(counter->sums);
  result.outside = tally;
  result.elements = done;
}

}  // namespace

/// What several ranks cannot do, refused alike on every rank.
void check_ranks(const options& opts, bool on_gpu, const rank_context& ranks) {
  if (!ranks.several()) return;
  if (!on_gpu) throw usage_error("several ranks bin on one GPU each; run one process for the CPU path");
  if (!can_sum_over_ranks())
    throw several_ranks_need_dist(ranks.size());
}

/// Under mpirun the weights' parts must hold the weights of the data's parts: raw and npy parts are
/// cut by element alike, text parts by bytes, which line up only within one file.
void check_weight_parts(const chunk_source& data, const chunk_source& weights, const options& opts,
                        const rank_context& ranks) {
  if (!ranks.several() || (data.total_items() && weights.total_items()) || opts.weights_path == opts.input.path) return;
  throw usage_error(weights.name() + ": under mpirun the ranks' parts of the data and of the weights match only "
                    "when both are raw or .npy, or when the weights are a column of the data file itself "
                    "(--weights-column)");
}

histogram_result compute_histogram(const options& opts, rank_context& ranks) {
  const bool on_gpu = use_gpu(opts.common);  // before the clock starts: it may create the CUDA context
  check_ranks(opts, on_gpu, ranks);
  const bkt::apps::stopwatch start;
  const bool needs_extent = opts.edges_path.empty() && !opts.range_given();
  const input_part part{ranks.rank(), ranks.size()};
  input_options data_input = opts.input;
  data_input.part = part;
  chunk_source data(data_input, needs_extent);
  std::optional<chunk_source> weights;
  if (opts.weighted()) {
    input_options weights_input = opts.weights_input();
    weights_input.part = part;
    weights.emplace(weights_input, false);
    check_weight_parts(data, *weights, opts, ranks);
    const auto data_total = data.total_items(), weights_total = weights->total_items();
    if (data_total && weights_total && *data_total != *weights_total)
      throw app_error(weights->name() + ": " + std::to_string(*weights_total) + " weights for the " +
                      std::to_string(*data_total) + " values in " + data.name() + "; give one weight per value");
  }
  const bin_plan plan = make_plan(opts, data, ranks);

  histogram_result result;
  result.input = is_standard_stream(opts.input.path) ? "-" : opts.input.path;
  result.weights_input = opts.weights_path;
  result.dtype = std::string(dtype_name(data.type()));
  result.binned_as = std::string(dtype_name(plan.binned_as));
  result.kind = plan.kind;
  result.edges = plan.edges;
  result.single_precision_edges = plan.binned_as == dtype::f32 && plan.library_even;  // else the given f64 edges
  visit_dtype(plan.binned_as, [&]<class T>(std::type_identity<T>) {
    if constexpr (std::is_integral_v<T> && sizeof(T) == 8)
      throw std::logic_error("bkt-histogram: 64-bit integers are binned as f64");  // binning.cpp never plans this
    else if constexpr (std::is_same_v<T, __half>)
      throw std::logic_error("bkt-histogram: f16 is binned as f64");  // nor this
    else
      count_all<T>(opts, data, weights ? &*weights : nullptr, plan, on_gpu, result);
  });
  if (ranks.several()) {
    ranks.require_all_succeeded();  // every part binned before the bins are added
    sum_over_ranks(result, ranks);
  }
  result.seconds = start.seconds();
  result.device = device_label(on_gpu);
  return result;
}

}  // namespace bkt::apps::histogram
