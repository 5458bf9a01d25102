// Text input: one number per line, or one field of comma- or whitespace-separated lines. Blank
// lines and '#' comments are skipped; any other line that does not hold a number is an error
// naming its line, so that a typo never silently drops data. Without --dtype the column's values
// choose it (text_dtype.hpp).
#include <string>
#include <string_view>

#include "source.hpp"
#include "text_dtype.hpp"
#include "text_fields.hpp"
#include "text_number.hpp"

namespace bkt::apps::detail {
namespace {

class text_source final : public chunk_reader::source {
 public:
  text_source(std::unique_ptr<input_stream> stream, const input_options& options)
      : source(std::move(stream)), lines_(options.column, options.delimiter, options.skip_header) {
    if (options.column && *options.column < 1) throw usage_error(name() + ": --column counts from 1");
    if (options.type) {
      type_ = *options.type;
      return;
    }
    inferred_ = true;
    inference_ = stream_->file_size() ? infer_text_dtype_of_file(options.path, options)
                                      : infer_text_dtype_of_stream(*stream_, options);
    type_ = inference_.column.type();
  }

  dtype type() const override { return type_; }
  bool type_inferred() const override { return inferred_; }
  file_format format() const override { return file_format::text; }
  std::optional<std::int64_t> total_items() const override { return std::nullopt; }

  std::int64_t read(void* out, std::int64_t max_items) override {
    auto* bytes = static_cast<std::byte*>(out);
    const std::size_t element_bytes = dtype_size(type_);
    std::int64_t count = 0;
    while (count < max_items && stream_->read_line(line_)) {
      const text_lines::data data = lines_.next(line_);
      if (!data.is_data) continue;
      parse_field(data, bytes + static_cast<std::size_t>(count) * element_bytes);
      ++count;
    }
    items_read_ += count;
    return count;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw app_error(name() + ":" + std::to_string(lines_.line_number()) + ": " + why);
  }

  void parse_field(const text_lines::data& data, std::byte* out) {
    const std::int64_t index = lines_.index();
    if (!lines_.column_named() && data.lookup.fields_seen > 1)
      fail(std::to_string(data.lookup.fields_seen) + " fields where one number was expected; choose one with --column");
    if (data.lookup.fields_seen <= index)
      fail("no field " + std::to_string(index + 1) + " (the line has " + std::to_string(data.lookup.fields_seen) + ")");
    std::string why = parse_number(data.lookup.field, type_, out);
    if (why.empty()) {
      if (inferred_ && !inference_.settled) inference_.column.add(data.lookup.field);  // for a message later
      return;
    }
    if (inferred_ && !inference_.settled) why = unsettled_message(data.lookup.field, why);
    fail(lines_.column_named() ? "field " + std::to_string(index + 1) + ": " + why : why);
  }

  /// A value past a stream's look-ahead that the dtype its first lines chose cannot hold: the
  /// stream cannot be read again in a wider dtype, so the message names the one to ask for.
  std::string unsettled_message(std::string_view field, const std::string& why) const {
    double probe = 0;
    if (!parse_number(field, dtype::f64, &probe).empty()) return why;  // not a number at all
    column_dtype wider = inference_.column;
    wider.add(field);
    return quoted_excerpt(field) + " does not fit the " + std::string(dtype_name(type_)) +
           " that the first lines chose, and " + name() + " cannot be read twice: give --dtype " +
           std::string(dtype_name(wider.type()));
  }

  dtype type_ = dtype::f64;
  bool inferred_ = false;
  inferred_dtype inference_;
  text_lines lines_;
  std::string line_;
};

}  // namespace

std::unique_ptr<chunk_reader::source> make_text_source(std::unique_ptr<input_stream> stream,
                                                       const input_options& options) {
  return std::make_unique<text_source>(std::move(stream), options);
}

}  // namespace bkt::apps::detail
