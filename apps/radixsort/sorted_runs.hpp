// Sorted runs waiting to be merged: kept in host memory while a budget allows, else appended to
// one spill file; a cursor reads a run back in blocks either way.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "buffer.hpp"
#include "spill_file.hpp"

namespace bkt::radixsort {

template <class Key>
struct sorted_run {
  std::int64_t count = 0;
  buffer<Key> keys;  // in memory; empty when spilled
  buffer<std::int64_t> indices;
  std::int64_t keys_offset = -1;  // in the spill file; -1 when in memory
  std::int64_t indices_offset = -1;
  bool spilled() const { return keys_offset >= 0; }
};

template <class Key>
class run_store {
 public:
  /// memory_budget_bytes: how many bytes of runs may stay in memory; force_spill: none may.
  run_store(std::int64_t memory_budget_bytes, bool force_spill, std::string spill_directory)
      : memory_budget_(memory_budget_bytes), force_spill_(force_spill), spill_directory_(std::move(spill_directory)) {}

  /// Adds a run; indices is empty or as long as keys (global input positions).
  void add(buffer<Key>&& keys, buffer<std::int64_t>&& indices) {
    sorted_run<Key> run;
    run.count = static_cast<std::int64_t>(keys.size());
    const auto bytes = static_cast<std::int64_t>(keys.size() * sizeof(Key) + indices.size() * sizeof(std::int64_t));
    if (!force_spill_ && memory_used_ + bytes <= memory_budget_) {
      memory_used_ += bytes;
      run.keys = std::move(keys);
      run.indices = std::move(indices);
    } else {
      if (!spill_) spill_ = std::make_unique<spill_file>(spill_directory_);
      run.keys_offset = spill_->append(keys.data(), keys.size() * sizeof(Key));
      run.indices_offset = spill_->append(indices.data(), indices.size() * sizeof(std::int64_t));
      ++spilled_runs_;
      buffer<Key>().swap(keys);  // give the memory back now
      buffer<std::int64_t>().swap(indices);
    }
    runs_.push_back(std::move(run));
  }

  const std::vector<sorted_run<Key>>& runs() const { return runs_; }
  const spill_file* spill() const { return spill_.get(); }
  std::int64_t spilled_runs() const { return spilled_runs_; }

 private:
  std::int64_t memory_budget_;
  bool force_spill_;
  std::string spill_directory_;
  std::int64_t memory_used_ = 0;
  std::int64_t spilled_runs_ = 0;
  std::unique_ptr<spill_file> spill_;
  std::vector<sorted_run<Key>> runs_;
};

/// Walks one run: in memory directly, from the spill file through a block buffer.
template <class Key>
class run_cursor {
 public:
  run_cursor(const sorted_run<Key>& run, const spill_file* spill, bool with_indices, std::int64_t block_items)
      : run_(&run), spill_(spill), with_indices_(with_indices), block_items_(std::max<std::int64_t>(block_items, 1)) {
    load();
  }

  bool done() const { return position_ >= run_->count; }
  const Key& key() const { return keys_[static_cast<std::size_t>(position_ - block_start_)]; }
  std::int64_t index() const {
    return with_indices_ ? indices_[static_cast<std::size_t>(position_ - block_start_)] : 0;
  }
  void advance() {
    ++position_;
    if (position_ - block_start_ >= block_size_ && !done()) load();
  }

 private:
  void load() {
    block_start_ = position_;
    if (!run_->spilled()) {  // the whole run is one block
      keys_ = run_->keys.data();
      indices_ = run_->indices.data();
      block_size_ = run_->count;
      return;
    }
    block_size_ = std::min(block_items_, run_->count - position_);
    key_buffer_.resize(static_cast<std::size_t>(block_size_));
    spill_->read_at(run_->keys_offset + position_ * static_cast<std::int64_t>(sizeof(Key)), key_buffer_.data(),
                    key_buffer_.size() * sizeof(Key));
    keys_ = key_buffer_.data();
    if (with_indices_) {
      index_buffer_.resize(static_cast<std::size_t>(block_size_));
      spill_->read_at(run_->indices_offset + position_ * static_cast<std::int64_t>(sizeof(std::int64_t)),
                      index_buffer_.data(), index_buffer_.size() * sizeof(std::int64_t));
      indices_ = index_buffer_.data();
    }
  }

  const sorted_run<Key>* run_;
  const spill_file* spill_;
  bool with_indices_;
  std::int64_t block_items_;
  std::int64_t position_ = 0;
  std::int64_t block_start_ = 0;
  std::int64_t block_size_ = 0;
  const Key* keys_ = nullptr;
  const std::int64_t* indices_ = nullptr;
  buffer<Key> key_buffer_;
  buffer<std::int64_t> index_buffer_;
};

}  // namespace bkt::radixsort
