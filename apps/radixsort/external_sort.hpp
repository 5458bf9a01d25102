// The external sample sort for inputs larger than one chunk: a first pass samples every chunk as
// it is read; splitters drawn from the sample cut the key order into buckets small enough for one
// GPU sort; a second pass multisplits each chunk by the splitters (bkt::host::multisplit, on the
// GPU when there is one) and appends the buckets' pieces to one spill file; then each bucket in
// order is read back, sorted and written. The output is the concatenation of the sorted buckets:
// no merge. Writes run on a second thread (background_job.hpp): the spill write of one chunk
// overlaps the read and conversion of the next, the output write of one bucket the read of the next.
//
// Stability and skew: the splitters are keys in the sort's order (order_image.hpp), and every
// splitter s gets a bucket of its own holding exactly the keys equal to s. Such a bucket needs no
// sort (its keys are equal, in input order, since chunks are split in order by a stable
// multisplit), so it may hold any number of keys: all-equal or few-distinct inputs cost nothing
// more. The buckets between splitters are sorted stably; a sample of about 2000 keys per bucket
// makes one larger than a chunk (the sort's capacity) vanishingly unlikely, and one that is
// still too large is sorted on the CPU.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "bkt/buckets.hpp"
#include "bkt/multisplit.hpp"
#include "background_job.hpp"
#include "bkt_apps/parallel_for.hpp"
#include "buffer.hpp"
#include "chunk_sorter.hpp"
#include "order_image.hpp"
#include "spill_file.hpp"

namespace bkt::radixsort {

template <class Key>
class external_sort {
 public:
  using word = image_of_t<Key>;

  /// bucket_items: the most keys one bucket sort takes (the chunk sorter's capacity).
  external_sort(bool descending, bool argsort, std::int64_t bucket_items, const std::string& spill_directory)
      : descending_(descending), argsort_(argsort), bucket_items_(bucket_items), spill_(spill_directory) {}

  /// Pass 1, every chunk in input order: keeps a random sample of it.
  void sample(std::span<const Key> chunk) {
    if (chunk.empty()) return;
    std::uniform_int_distribution<std::size_t> pick(0, chunk.size() - 1);
    const std::size_t count = std::min<std::size_t>(chunk.size(), samples_per_chunk);
    for (std::size_t i = 0; i < count; ++i) sample_.push_back(order_image(chunk[pick(random_)], descending_));
  }

  /// After pass 1: the splitters for `total` keys.
  void choose_splitters(std::int64_t total) {
    std::sort(sample_.begin(), sample_.end());
    const auto samples = static_cast<std::int64_t>(sample_.size());
    // Two ranges per chunk's worth of keys, each with at least 500 samples.
    const std::int64_t ranges = std::min({std::max<std::int64_t>(1, (2 * total + bucket_items_ - 1) / bucket_items_),
                                          std::max<std::int64_t>(1, samples / 500), max_ranges});
    splitters_.clear();
    std::optional<word> last;
    for (std::int64_t i = 1; i < ranges; ++i) {
      const word value = sample_[static_cast<std::size_t>(i * samples / ranges)];
      if (last == value) continue;
      last = value;
      // [value, value + 1) holds the keys equal to value: a bucket of its own (an odd bucket).
      splitters_.push_back(value);
      if (value != static_cast<word>(~word{0})) splitters_.push_back(static_cast<word>(value + 1));
    }
    sample_ = {};
    buckets_.assign(splitters_.size() + 1, {});
  }

  int num_buckets() const { return static_cast<int>(buckets_.size()); }

  /// Pass 2, every chunk in input order; `first_position` is the chunk's first input position.
  /// The chunk's keys are overwritten by their order images, which the multisplit reads in place
  /// (so the pass holds two chunk-sized buffers, not three). The split keys go to the spill file on
  /// a second thread, which the conversion of this chunk and the caller's read of the next overlap.
  void split(std::span<Key> chunk, std::int64_t first_position) {
    const std::size_t count = chunk.size();
    const std::span<const word> images = images_in_place(chunk);
    if (argsort_) {
      positions_.resize(count);
      for (std::size_t i = 0; i < count; ++i) positions_[i] = first_position + static_cast<std::int64_t>(i);
    }
    spill_writer_.wait();  // the previous chunk's split keys are on disk: their buffers are free
    split_images_.resize(count);
    split_positions_.resize(argsort_ ? count : 0);
    std::vector<std::int64_t> offsets(buckets_.size() + 1);
    const splitter_buckets<word> bucket_of{splitters_.data(), static_cast<int>(splitters_.size())};
    if (argsort_)
      host::multisplit<word, std::int64_t>(images, positions_, split_images_, split_positions_, offsets,
                                           num_buckets(), bucket_of);
    else
      host::multisplit<word>(images, split_images_, offsets, num_buckets(), bucket_of);
    const std::int64_t images_at = spill_.claim(count * sizeof(word));
    const std::int64_t positions_at = argsort_ ? spill_.claim(count * sizeof(std::int64_t)) : -1;
    for (std::size_t b = 0; b < buckets_.size(); ++b) {
      const std::int64_t items = offsets[b + 1] - offsets[b];
      if (items == 0) continue;
      buckets_[b].push_back({images_at + offsets[b] * static_cast<std::int64_t>(sizeof(word)),
                             positions_at + offsets[b] * static_cast<std::int64_t>(sizeof(std::int64_t)), items});
    }
    spill_writer_.submit([this, count, images_at, positions_at] {
      spill_.write_at(images_at, split_images_.data(), count * sizeof(word));
      if (argsort_) spill_.write_at(positions_at, split_positions_.data(), count * sizeof(std::int64_t));
    });
  }

  /// After pass 2: waits until the last chunk's split keys are on disk, and frees their buffers
  /// for pass 3's.
  void finish_split() {
    spill_writer_.wait();
    buffer<word>().swap(split_images_);
    buffer<std::int64_t>().swap(split_positions_);
  }

  /// Pass 3: each bucket in order, sorted by `sorter` (or by `fallback`, made on demand, when it
  /// is larger than bucket_items), handed to emit(keys, positions or nullptr, count). emit runs on
  /// a second thread, one call at a time in bucket order, while the next bucket is read: it must
  /// share nothing with the caller's thread until this returns. Returns the number of buckets that
  /// held keys.
  template <class MakeFallback, class Emit>
  std::int64_t sort_buckets(chunk_sorter<Key>& sorter, MakeFallback&& make_fallback, sort_times& times, Emit&& emit) {
    finish_split();
    std::int64_t used = 0;
    try {  // emit may use what the caller frees once this throws: the writer must stop first
      for (std::size_t b = 0; b < buckets_.size(); ++b) {
        if (buckets_[b].empty()) continue;
        ++used;
        if (b % 2 == 1) {
          emit_equal_keys(buckets_[b], emit);
          continue;
        }
        read_bucket(buckets_[b]);
        const std::size_t count = images_.size();
        if (static_cast<std::int64_t>(count) <= bucket_items_) {
          sorter.sort(keys_, keys_, indices_, times);
        } else {
          if (!fallback_) fallback_ = make_fallback();
          fallback_->sort(keys_, keys_, indices_, times);
        }
        if (argsort_)  // bucket positions -> input positions
          for (std::int64_t& index : indices_) index = positions_[static_cast<std::size_t>(index)];
        emit_in_background(emit, count);
      }
    } catch (...) {
      output_writer_.wait_quietly();
      throw;
    }
    output_writer_.wait();
    return used;
  }

 private:
  /// Overwrites each key with its order image (the same size, written byte-wise, so that the
  /// memory then holds words) and returns the words.
  std::span<const word> images_in_place(std::span<Key> chunk) {
    static_assert(sizeof(Key) == sizeof(word), "an order image is as wide as its key");
    auto* const bytes = reinterpret_cast<unsigned char*>(chunk.data());
    apps::parallel_for(static_cast<std::int64_t>(chunk.size()), conversion_grain, 0,
                       [&](std::int64_t begin, std::int64_t end) {
                         for (std::int64_t i = begin; i < end; ++i) {
                           const word image = order_image(chunk[i], descending_);
                           std::memcpy(bytes + i * static_cast<std::int64_t>(sizeof(word)), &image, sizeof(word));
                         }
                       });
    return {std::launder(reinterpret_cast<const word*>(bytes)), chunk.size()};
  }

  struct piece {
    std::int64_t images_offset;
    std::int64_t positions_offset;
    std::int64_t count;
  };

  /// Reads a bucket's pieces into images_ (and positions_), overlapping the write of the bucket
  /// before, then, once that is done, turns them into keys_ (and sizes indices_).
  void read_bucket(const std::vector<piece>& pieces) {
    std::int64_t total = 0;
    for (const piece& p : pieces) total += p.count;
    images_.resize(static_cast<std::size_t>(total));
    positions_.resize(argsort_ ? static_cast<std::size_t>(total) : 0);
    std::int64_t at = 0;
    for (const piece& p : pieces) {
      spill_.read_at(p.images_offset, images_.data() + at, static_cast<std::size_t>(p.count) * sizeof(word));
      if (argsort_)
        spill_.read_at(p.positions_offset, positions_.data() + at, static_cast<std::size_t>(p.count) * sizeof(std::int64_t));
      at += p.count;
    }
    output_writer_.wait();  // keys_ and indices_ are the bucket before's until it is written
    keys_.resize(images_.size());
    indices_.resize(argsort_ ? images_.size() : 0);
    apps::parallel_for(static_cast<std::int64_t>(images_.size()), conversion_grain, 0,
                       [&](std::int64_t begin, std::int64_t end) {
                         for (std::int64_t i = begin; i < end; ++i) keys_[i] = key_of_image<Key>(images_[i], descending_);
                       });
  }

  /// A bucket of equal keys, piece by piece: already in input order.
  template <class Emit>
  void emit_equal_keys(const std::vector<piece>& pieces, Emit& emit) {
    for (const piece& p : pieces) {
      read_bucket({p});
      if (argsort_) std::copy(positions_.begin(), positions_.end(), indices_.begin());
      emit_in_background(emit, static_cast<std::size_t>(p.count));
    }
  }

  /// emit(keys_, indices_ or nullptr, count) on the output writer's thread.
  template <class Emit>
  void emit_in_background(Emit& emit, std::size_t count) {
    output_writer_.submit([this, &emit, count] {
      emit(keys_.data(), argsort_ ? indices_.data() : nullptr, static_cast<std::int64_t>(count));
    });
  }

  static constexpr std::size_t samples_per_chunk = 4096;
  static constexpr std::int64_t conversion_grain = std::int64_t{1} << 20;  // keys per thread's turn
  static constexpr std::int64_t max_ranges = 16383;  // 2 x 16383 + 1 buckets fit multisplit's 65536

  bool descending_;
  bool argsort_;
  std::int64_t bucket_items_;
  spill_file spill_;
  std::mt19937_64 random_{0x9e3779b97f4a7c15ull};  // fixed: a run's buckets are reproducible
  std::vector<word> sample_;
  std::vector<word> splitters_;
  std::vector<std::vector<piece>> buckets_;
  buffer<word> images_, split_images_;
  buffer<std::int64_t> positions_, split_positions_, indices_;
  buffer<Key> keys_;
  std::unique_ptr<chunk_sorter<Key>> fallback_;
  // Last, so that they are destroyed first: their jobs use the buffers above.
  background_job spill_writer_;   // pass 2: a split chunk to the spill file
  background_job output_writer_;  // pass 3: a sorted bucket to emit
};

}  // namespace bkt::radixsort
