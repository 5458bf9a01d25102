// The per-format half of chunk_reader: each input format implements this interface.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "bkt_apps/numeric_io.hpp"
#include "input_stream.hpp"

namespace bkt::apps {

class chunk_reader::source {
 public:
  virtual ~source() = default;
  virtual dtype type() const = 0;
  /// True when the values chose the dtype (text without --dtype).
  virtual bool type_inferred() const { return false; }
  virtual file_format format() const = 0;
  virtual std::optional<std::int64_t> total_items() const = 0;
  /// The index of this part's first element in the whole input (input_part), when known.
  virtual std::optional<std::int64_t> first_item() const { return 0; }
  /// Up to max_items elements into out, machine byte order; 0 at the end.
  virtual std::int64_t read(void* out, std::int64_t max_items) = 0;

  const std::string& name() const { return stream_->name(); }
  std::int64_t items_read() const { return items_read_; }

 protected:
  explicit source(std::unique_ptr<detail::input_stream> stream) : stream_(std::move(stream)) {}
  std::unique_ptr<detail::input_stream> stream_;
  std::int64_t items_read_ = 0;
};

namespace detail {
/// The elements [first, first + count) of part `part` among `total` elements.
struct element_range {
  std::int64_t first = 0;
  std::int64_t count = 0;
};
element_range part_of(std::int64_t total, const input_part& part);
/// floor(total index / count), exactly: where part `index` of `count` begins.
std::int64_t part_boundary(std::int64_t total, int index, int count);
/// Throws usage_error unless `part` is valid, and unless `stream` is a regular file when the
/// input is cut into several parts.
void check_part(const input_stream& stream, const input_part& part);

std::unique_ptr<chunk_reader::source> make_raw_source(std::unique_ptr<input_stream> stream,
                                                      const input_options& options);
std::unique_ptr<chunk_reader::source> make_npy_source(std::unique_ptr<input_stream> stream,
                                                      const input_options& options);
std::unique_ptr<chunk_reader::source> make_text_source(std::unique_ptr<input_stream> stream,
                                                       const input_options& options);
}  // namespace detail

}  // namespace bkt::apps
