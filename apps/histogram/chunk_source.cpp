#include "chunk_source.hpp"

#include <algorithm>
#include <cstring>

namespace bkt::apps::histogram {

chunk_source::chunk_source(const input_options& options, bool keep_in_memory) : options_(options) {
  if (keep_in_memory && is_standard_stream(options_.path)) {
    memory_ = read_array(options_);
    type_ = memory_.type();
    name_ = "<stdin>";
  } else {
    reader_.emplace(options_);
    type_ = reader_->type();
    name_ = reader_->name();
  }
}

std::optional<std::int64_t> chunk_source::total_items() const {
  if (!reader_) return memory_.size();
  return reader_->total_items();
}

std::int64_t chunk_source::read(void* out, std::int64_t max_items) {
  if (reader_) return reader_->read_into(out, max_items);
  const std::int64_t count = std::min(max_items, memory_.size() - memory_offset_);
  const std::size_t element = dtype_size(type_);
  if (count > 0)
    std::memcpy(out, memory_.data() + static_cast<std::size_t>(memory_offset_) * element,
                static_cast<std::size_t>(count) * element);
  memory_offset_ += count;
  return count;
}

void chunk_source::rewind() {
  if (reader_)
    reader_.emplace(options_);
  else
    memory_offset_ = 0;
}

}  // namespace bkt::apps::histogram
