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
std::unique_ptr<chunk_reader::source> make_raw_source(std::unique_ptr<input_stream> stream,
                                                      const input_options& options);
std::unique_ptr<chunk_reader::source> make_npy_source(std::unique_ptr<input_stream> stream,
                                                      const input_options& options);
std::unique_ptr<chunk_reader::source> make_text_source(std::unique_ptr<input_stream> stream,
                                                       const input_options& options);
}  // namespace detail

}  // namespace bkt::apps
