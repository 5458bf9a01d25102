// Raw input: bare elements of the dtype and byte order the command line gives.
#include <string>

#include "byte_swap.hpp"
#include "source.hpp"

namespace bkt::apps::detail {
namespace {

std::string not_whole_message(const std::string& name, std::int64_t bytes, dtype type) {
  return name + ": " + std::to_string(bytes) + " bytes is not a whole number of " + std::string(dtype_name(type)) +
         " elements (" + std::to_string(dtype_size(type)) + " bytes each)";
}

class raw_source final : public chunk_reader::source {
 public:
  raw_source(std::unique_ptr<input_stream> stream, dtype type, byte_order order, const input_part& part)
      : source(std::move(stream)), type_(type), swap_(needs_swap(order == byte_order::big)) {
    if (const auto bytes = stream_->file_size()) {
      const auto element = static_cast<std::int64_t>(dtype_size(type));
      if (*bytes % element != 0) throw app_error(not_whole_message(name(), *bytes, type));
      total_ = *bytes / element;
      if (part.count > 1) {
        const element_range range = part_of(*total_, part);
        stream_->seek_range(range.first * element, (range.first + range.count) * element);
        first_ = range.first;
        total_ = range.count;
      }
    }
  }

  dtype type() const override { return type_; }
  file_format format() const override { return file_format::raw; }
  std::optional<std::int64_t> total_items() const override { return total_; }
  std::optional<std::int64_t> first_item() const override { return first_; }

  std::int64_t read(void* out, std::int64_t max_items) override {
    const std::size_t element = dtype_size(type_);
    const std::size_t wanted = static_cast<std::size_t>(max_items) * element;
    const std::size_t got = stream_->read(out, wanted);
    if (got % element != 0)  // only at the end of a stream whose size was not known up front
      throw app_error(not_whole_message(name(), stream_->position(), type_));
    const auto count = static_cast<std::int64_t>(got / element);
    if (swap_) swap_bytes(out, count, element);
    items_read_ += count;
    return count;
  }

 private:
  dtype type_;
  bool swap_;
  std::optional<std::int64_t> total_;
  std::int64_t first_ = 0;
};

}  // namespace

std::unique_ptr<chunk_reader::source> make_raw_source(std::unique_ptr<input_stream> stream,
                                                      const input_options& options) {
  if (!options.type)
    throw usage_error(stream->name() + ": raw input needs --dtype (one of " + std::string(dtype_list()) + ")");
  if (options.column && *options.column != 1)
    throw usage_error(stream->name() + ": raw input has one column; --column " + std::to_string(*options.column) +
                      " does not apply");
  return std::make_unique<raw_source>(std::move(stream), *options.type, options.order, options.part);
}

}  // namespace bkt::apps::detail
