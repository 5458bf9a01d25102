// The host API's CPU path: a stable radix sort on every core the process may use, over 8-bit
// digits of the keys' order-preserving image (bkt/detail/radix_bits.hpp), so that it orders as the
// GPU sort and bkt::ref do: the same total order of floats, descending order, bit ranges, ties in
// input order. bkt::ref keeps its std::stable_sort as the reference the tests trust.
//
// The design follows the memory system, not the GPU: a pass over main memory costs what its
// bandwidth costs, and one thread scattering to 256 places in main memory is bound by latency,
// so the sort makes as few such passes as it can. One read finds which digits vary (the OR and
// AND of the images) and counts the top digit. All threads then split the input by the most
// significant digit that varies, each moving its own contiguous block through cache-line staging
// with streaming stores (the blocks in input order keep the split stable). A bucket still larger
// than a thread's share is split again by all threads the same way; the rest go out one at a
// time, largest first, to threads that sort each alone (cpu_bucket.hpp: in the thread's own
// cache-sized buffers once a bucket fits them, with a single write of the result to memory).
#pragma once

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <cstdint>
#include <memory>
#include <optional>
#include <system_error>
#include <thread>
#include <vector>

#include "bkt/radix_sort.hpp"
#include "cpu_bucket.hpp"
#include "cpu_steps.hpp"

namespace bkt::detail::radix_sort_cpu {

/// Below this many keys per thread, starting a thread costs more than it saves.
constexpr std::int64_t min_items_per_thread = std::int64_t{1} << 16;

/// The threads to use for n keys: the CPUs this process may run on (its affinity mask, which
/// containers and taskset narrow), fewer for small inputs.
inline int thread_count(std::int64_t n) {
  int cpus = 0;
  cpu_set_t set;
  if (::sched_getaffinity(0, sizeof(set), &set) == 0) cpus = CPU_COUNT(&set);
  if (cpus <= 0) cpus = static_cast<int>(std::thread::hardware_concurrency());
  return static_cast<int>(std::clamp<std::int64_t>(n / min_items_per_thread, 1, std::max(cpus, 1)));
}

/// [begin, end) of block `t` of `threads` near-equal blocks of [first, last).
inline std::pair<std::int64_t, std::int64_t> block_of(std::int64_t first, std::int64_t last, int threads, int t) {
  const std::int64_t n = last - first, per = n / threads, extra = n % threads;
  const std::int64_t begin = first + t * per + std::min<std::int64_t>(t, extra);
  return {begin, begin + per + (t < extra ? 1 : 0)};
}

/// Where the sort reads and writes. values_in null with values_out set: emit input positions.
/// keys_out null: indices only. keys_out may be keys_in and values_out values_in (in place);
/// no other overlap is allowed.
template <class Key, class Value>
struct sort_io {
  const Key* keys_in;
  Key* keys_out;
  const typename lanes<Key, Value>::value_slot* values_in;
  typename lanes<Key, Value>::value_slot* values_out;
  std::int64_t n;
};

template <class Key, class Value>
class sorter {
 public:
  using buffers = lanes<Key, Value>;
  static constexpr bool has_values = buffers::has_values;
  using value_slot = typename buffers::value_slot;

  /// Allocates every buffer, so that the threads never allocate: a failure is a plain exception
  /// here, before any thread runs. Untouched pages cost nothing, so the scratch is allocated even
  /// where no pass turns out to be needed.
  sorter(const sort_io<Key, Value>& io, const radix_sort_options& options) : io_(io), threads_(thread_count(io.n)) {
    constexpr int key_bits = 8 * static_cast<int>(sizeof(Key));
    const int end_bit = options.end_bit < 0 ? key_bits : options.end_bit;
    const bool descending = options.order == sort_order::descending;
    const int bits = end_bit - options.begin_bit;
    const std::uint64_t range_mask = bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
    // An empty range (begin_bit may then be 64) compares nothing: no shift, no bits.
    image_ = {bits == 0 ? 0 : options.begin_bit, range_mask, descending ? range_mask : 0};
    for (int shift = end_bit - digit_bits; shift > options.begin_bit - digit_bits; shift -= digit_bits) {
      const int low = std::max(shift, options.begin_bit);  // the last digit may be narrower
      const unsigned mask = (1u << (shift + digit_bits - low)) - 1u;
      all_digits_.push_back({low, mask, descending ? mask : 0u});
    }
    const auto n = static_cast<std::size_t>(io.n);
    digits_.reserve(all_digits_.size());
    part_counts_.resize(static_cast<std::size_t>(threads_));
    ors_.resize(static_cast<std::size_t>(threads_));
    ands_.resize(static_cast<std::size_t>(threads_));
    for (int t = 0; t < threads_; ++t) {
      stages_.push_back(std::make_unique_for_overwrite<staging<Key, Value>>());
      workspaces_.push_back(std::make_unique<typename bucket_sorter<Key, Value>::workspace>(io.n, all_digits_.size()));
    }
    // A split leaves at most 2 * threads buckets larger than the share (n / (2 * threads)) of
    // the parts it splits, at each digit; each split adds at most radix tasks.
    const std::size_t big_limit = 2 * static_cast<std::size_t>(threads_) * all_digits_.size() + 1;
    big_.reserve(big_limit);
    tasks_.reserve(std::min<std::size_t>(n, radix * (big_limit + 1)));
    scratch_keys_ = std::make_unique_for_overwrite<Key[]>(n);
    out_.keys = io.keys_out;
    if (io.keys_out == nullptr) {
      spare_keys_ = std::make_unique_for_overwrite<Key[]>(n);
      out_.keys = spare_keys_.get();
    }
    scratch_.keys = scratch_keys_.get();
    if constexpr (has_values) {
      scratch_values_ = std::make_unique_for_overwrite<Value[]>(n);
      scratch_.values = scratch_values_.get();
      out_.values = io.values_out;
    }
    input_.keys = const_cast<Key*>(io.keys_in);  // read only: the first split reads it, nothing writes it
    input_.values = const_cast<value_slot*>(io.values_in);
  }

  void run() {
    // Threads wait at a gate until all are started: if one cannot be, the sort runs on those that
    // were. The helpers are declared last, so that they are joined before what they use is gone.
    std::atomic<int> gate{0};
    std::optional<std::barrier<>> sync;
    const auto work = [&](int t) { work_on(t, *sync); };
    std::vector<std::jthread> helpers;
    helpers.reserve(static_cast<std::size_t>(threads_ - 1));
    try {
      for (int t = 1; t < threads_; ++t)
        helpers.emplace_back([&, t] {
          gate.wait(0);
          if (t < threads_) work(t);
        });
    } catch (...) {  // a thread that cannot start (system_error, bad_alloc): run on those that did
      threads_ = static_cast<int>(helpers.size()) + 1;
    }
    sync.emplace(threads_);
    gate.store(1);
    gate.notify_all();
    work(0);
  }

 private:
  /// A bucket: [begin, end), in the output or the scratch buffer, to sort by digits_[first...].
  struct part {
    std::int64_t begin, end;
    bool in_out;
    std::size_t first;
  };

  void work_on(int t, std::barrier<>& sync) {
    survey_block(t);
    sync.arrive_and_wait();
    if (t == 0) plan();
    sync.arrive_and_wait();
    if (digits_.empty()) {  // no digit varies: the input's order stands
      const auto [begin, end] = block_of(0, io_.n, threads_, t);
      return copy_range(input_, out_, begin, end);
    }
    if (!top_digit_varies_) {  // the survey counted the top digit, not the first that varies
      const auto [begin, end] = block_of(0, io_.n, threads_, t);
      count_digits(io_.keys_in, begin, end, digits_[0], part_counts_[t]);
      sync.arrive_and_wait();
    }
    // The first split reads the input (keys_in may be keys_out), so it writes the scratch buffer,
    // as a split of a part held in the output would.
    const part all{0, io_.n, true, 0};
    split_block(t, all, input_, scratch_, part_counts_);
    sync.arrive_and_wait();
    if (t == 0) share_out(all, part_counts_);
    sync.arrive_and_wait();
    // Buckets larger than a thread's share: split by all threads, one after another. Thread 0
    // appends to big_ between barriers, so every thread sees the same list.
    for (std::size_t b = 0; b < big_.size(); ++b) {
      const part whole = big_[b];
      const buffers here = whole.in_out ? out_ : scratch_;
      const auto [begin, end] = block_of(whole.begin, whole.end, threads_, t);
      count_digits(here.keys, begin, end, digits_[whole.first], part_counts_[t]);
      sync.arrive_and_wait();
      split_block(t, whole, here, whole.in_out ? scratch_ : out_, part_counts_);
      sync.arrive_and_wait();
      if (t == 0) share_out(whole, part_counts_);
      sync.arrive_and_wait();
    }
    // The rest, largest first, to whichever thread is free.
    bucket_sorter<Key, Value> buckets(digits_, image_, out_, scratch_, *stages_[t], *workspaces_[t]);
    for (std::size_t k; (k = next_task_.fetch_add(1)) < tasks_.size();) {
      const part& task = tasks_[k];
      buckets.sort(task.in_out, task.begin, task.end, task.first);
    }
  }

  /// One read of this thread's block of the input: the OR and AND of the compared bits (a digit
  /// varies where they differ) and the counts of the top digit, the one that usually splits.
  void survey_block(int t) {
    const auto [begin, end] = block_of(0, io_.n, threads_, t);
    const image_of<Key> bits{image_.shift, image_.mask, 0};
    counts& mine = part_counts_[t];
    mine.fill(0);
    std::uint64_t any = 0, all = ~std::uint64_t{0};
    const digit_of<Key> top = all_digits_.empty() ? digit_of<Key>{0, 0, 0} : all_digits_[0];
    for (std::int64_t i = begin; i < end; ++i) {
      const std::uint64_t image = bits(io_.keys_in[i]);
      any |= image;
      all &= image;
      ++mine[top(io_.keys_in[i])];
    }
    ors_[t] = any;
    ands_[t] = all;
  }

  /// Keeps the digits that vary (thread 0 alone, between barriers).
  void plan() {
    std::uint64_t any = 0, all = ~std::uint64_t{0};
    for (int t = 0; t < threads_; ++t) any |= ors_[t], all &= ands_[t];
    const std::uint64_t varying = (any ^ all) << image_.shift;
    for (const digit_of<Key>& digit : all_digits_)
      if ((varying >> digit.shift) & digit.mask) digits_.push_back(digit);
    top_digit_varies_ = !digits_.empty() && digits_[0].shift == all_digits_[0].shift;
  }

  /// This thread's share of splitting `whole` by its digit, given every block's digit counts:
  /// its keys of digit d go after all smaller digits and after digit d of the blocks before it,
  /// which keeps the split stable.
  void split_block(int t, const part& whole, buffers from, buffers to, const std::vector<counts>& per_block) {
    counts next;
    std::int64_t at = whole.begin;
    for (int d = 0; d < radix; ++d) {
      next[d] = at;
      for (int u = 0; u < threads_; ++u) {
        if (u == t) next[d] = at;
        at += per_block[u][d];
      }
    }
    const auto [begin, end] = block_of(whole.begin, whole.end, threads_, t);
    move_by_digit_streaming(from, to, begin, end, digits_[whole.first], next, *stages_[t]);
  }

  /// After a split of `whole` (thread 0 alone): each bucket to the list of large ones, which all
  /// threads split together, or to the tasks, kept largest first.
  void share_out(const part& whole, const std::vector<counts>& per_block) {
    const std::int64_t share = std::max<std::int64_t>(io_.n / (2 * threads_), bucket_sorter<Key, Value>::local_items);
    std::int64_t at = whole.begin;
    for (int d = 0; d < radix; ++d) {
      std::int64_t size = 0;
      for (int u = 0; u < threads_; ++u) size += per_block[u][d];
      const part bucket{at, at + size, !whole.in_out, whole.first + 1};
      at += size;
      if (size == 0) continue;
      if (threads_ > 1 && size > share && bucket.first < digits_.size())
        big_.push_back(bucket);
      else
        tasks_.push_back(bucket);
    }
    std::sort(tasks_.begin(), tasks_.end(), [](const part& a, const part& b) {
      return a.end - a.begin != b.end - b.begin ? a.end - a.begin > b.end - b.begin : a.begin < b.begin;
    });
  }

  sort_io<Key, Value> io_;
  int threads_;
  image_of<Key> image_{};
  std::vector<digit_of<Key>> all_digits_;  // most significant first
  std::vector<digit_of<Key>> digits_;      // those that vary
  std::vector<std::uint64_t> ors_, ands_;   // per thread: of its block's compared bits
  bool top_digit_varies_ = false;
  std::vector<counts> part_counts_;         // per thread: its block's counts in the split under way
  std::vector<std::unique_ptr<staging<Key, Value>>> stages_;  // per thread
  std::vector<std::unique_ptr<typename bucket_sorter<Key, Value>::workspace>> workspaces_;  // per thread
  std::vector<part> big_;                   // buckets all threads split together, in turn
  std::vector<part> tasks_;                 // buckets one thread sorts, largest first
  std::atomic<std::size_t> next_task_{0};
  buffers input_, out_, scratch_;
  std::unique_ptr<Key[]> scratch_keys_;
  std::unique_ptr<Key[]> spare_keys_;
  std::unique_ptr<value_slot[]> scratch_values_;
};

/// Sorts as the host API's CPU path: see sort_io for what may alias.
template <class Key, class Value>
void sort(const sort_io<Key, Value>& io, const radix_sort_options& options) {
  if (io.n <= 0) return;
  sorter<Key, Value>(io, options).run();
}

}  // namespace bkt::detail::radix_sort_cpu
