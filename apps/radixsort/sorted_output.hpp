// The last step before the writer: --unique drops repeats, --argsort writes indices not keys.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "buffer.hpp"
#include "bkt_apps/numeric_io.hpp"

namespace bkt::radixsort {

template <class Key>
class sorted_output {
 public:
  sorted_output(apps::array_writer& writer, bool argsort, bool unique)
      : writer_(writer), argsort_(argsort), unique_(unique) {}

  /// Writes the next `count` sorted keys (and their indices, which argsort needs).
  void write(const Key* keys, const std::int64_t* indices, std::int64_t count) {
    if (!unique_) {
      if (argsort_)
        writer_.write(std::span<const std::int64_t>(indices, static_cast<std::size_t>(count)));
      else
        writer_.write(std::span<const Key>(keys, static_cast<std::size_t>(count)));
      return;
    }
    kept_keys_.clear();
    kept_indices_.clear();
    for (std::int64_t i = 0; i < count; ++i) {
      // Equal means equal bits: -0.0 and +0.0 differ, and so do NaNs with different payloads.
      if (have_last_ && std::memcmp(&last_, &keys[i], sizeof(Key)) == 0) continue;
      last_ = keys[i];
      have_last_ = true;
      if (argsort_)
        kept_indices_.push_back(indices[i]);
      else
        kept_keys_.push_back(keys[i]);
    }
    if (argsort_)
      writer_.write(std::span<const std::int64_t>(kept_indices_));
    else
      writer_.write(std::span<const Key>(kept_keys_));
  }

 private:
  apps::array_writer& writer_;
  bool argsort_;
  bool unique_;
  bool have_last_ = false;
  Key last_{};
  buffer<Key> kept_keys_;
  buffer<std::int64_t> kept_indices_;
};

}  // namespace bkt::radixsort
