// The data as a sequence of chunks that can be read twice: a file is opened again for the second
// pass; standard input, which cannot be read again, is held in memory when a second pass is needed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "bkt_apps/numeric_io.hpp"

namespace bkt::apps::histogram {

class chunk_source {
 public:
  /// Opens the input (reading its header). keep_in_memory: read standard input whole now, so that
  /// rewind() works on it.
  chunk_source(const input_options& options, bool keep_in_memory);

  dtype type() const { return type_; }
  const std::string& name() const { return name_; }
  /// The element count when known before reading (npy, raw files, and input held in memory).
  std::optional<std::int64_t> total_items() const;

  /// Where this part's first element is in the whole input (0 for the whole input; nullopt for a
  /// text part after the first: input_part in bkt_apps/numeric_io.hpp).
  std::optional<std::int64_t> first_item() const { return reader_ ? reader_->first_item() : 0; }
  /// Up to max_items elements of type() into `out`; fewer only at the end; 0 at the end.
  std::int64_t read(void* out, std::int64_t max_items);
  /// Starts again at the first element.
  void rewind();

 private:
  input_options options_;
  std::optional<chunk_reader> reader_;  // empty when the input is held in memory
  numeric_array memory_;
  std::int64_t memory_offset_ = 0;
  dtype type_ = dtype::f64;
  std::string name_;
};

}  // namespace bkt::apps::histogram
