// Text input: one number per line, or one field of comma- or whitespace-separated lines. Blank
// lines and '#' comments are skipped; any other line that does not hold a number is an error
// naming its line, so that a typo never silently drops data. Without --dtype the column's values
// choose it (text_dtype.hpp).
#include <algorithm>
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
      : source(std::move(stream)),
        lines_(options.column, part_delimiter(options), options.skip_header && options.part.index == 0) {
    if (options.column && *options.column < 1) throw usage_error(name() + ": --column counts from 1");
    if (options.part.count > 1) read_part_only(options.part);
    if (options.type) {
      type_ = *options.type;
      return;
    }
    inferred_ = true;
    // A part keeps the whole file's choice, so that every rank reads the same dtype.
    inference_ = stream_->file_size() ? infer_text_dtype_of_file(options.path, options)
                                      : infer_text_dtype_of_stream(*stream_, options);
    type_ = inference_.column.type();
  }

  dtype type() const override { return type_; }
  bool type_inferred() const override { return inferred_; }
  file_format format() const override { return file_format::text; }
  std::optional<std::int64_t> total_items() const override { return std::nullopt; }
  std::optional<std::int64_t> first_item() const override {
    return part_begin_ == 0 ? std::optional<std::int64_t>(0) : std::nullopt;
  }

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
  /// The delimiter a part after the first uses: the given one, else the one the file's first data
  /// line chose (a part must not choose its own from a line that differs).
  static char part_delimiter(const input_options& options) {
    if (options.delimiter != 0 || options.part.index == 0) return options.delimiter;
    input_stream file(options.path);
    text_lines lines(options.column, 0, options.skip_header);
    std::string line;
    while (lines.delimiter() == 0 && file.read_line(line)) lines.next(line);
    return lines.delimiter();
  }

  /// Part i begins at the first line start at or after byte size i / count (at least 1, so that
  /// the first part holds the first line, which may be a header) and ends where part i + 1 begins.
  void read_part_only(const input_part& part) {
    const std::int64_t size = *stream_->file_size();
    const auto boundary = [&](int index) -> std::int64_t {
      if (index == 0) return 0;
      if (index == part.count) return size;
      return stream_->line_start_at_or_after(std::max<std::int64_t>(part_boundary(size, index, part.count), 1));
    };
    part_begin_ = boundary(part.index);
    stream_->seek_range(part_begin_, std::max(part_begin_, boundary(part.index + 1)));
  }

  /// Line numbers in messages count from the file's start, also in a later part.
  [[noreturn]] void fail(const std::string& why) const {
    const std::int64_t earlier = part_begin_ > 0 ? stream_->newlines_before(part_begin_) : 0;
    throw app_error(name() + ":" + std::to_string(earlier + lines_.line_number()) + ": " + why);
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
  std::int64_t part_begin_ = 0;  // the byte where this part's lines begin
};

}  // namespace

std::unique_ptr<chunk_reader::source> make_text_source(std::unique_ptr<input_stream> stream,
                                                       const input_options& options) {
  return std::make_unique<text_source>(std::move(stream), options);
}

}  // namespace bkt::apps::detail
