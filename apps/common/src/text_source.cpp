// Text input: one number per line, or one field of comma- or whitespace-separated lines. Blank
// lines and '#' comments are skipped; any other line that does not hold a number is an error
// naming its line, so that a typo never silently drops data.
#include <string>
#include <string_view>

#include "source.hpp"
#include "text_number.hpp"

namespace bkt::apps::detail {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
  return text;
}

/// Field `index` (0-based) of `line`, and how many fields the line has (counted up to index + 2,
/// enough to tell "exactly one" from "more").
struct field_lookup {
  std::string_view field;
  int fields_seen = 0;
};

field_lookup find_field(std::string_view line, char delimiter, std::int64_t index) {
  field_lookup found;
  std::size_t at = 0;
  for (std::int64_t k = 0;; ++k) {
    std::string_view field;
    if (delimiter != ' ') {
      if (at > line.size()) break;
      const std::size_t comma = line.find(delimiter, at);
      const std::size_t end = comma == std::string_view::npos ? line.size() : comma;
      field = trim(line.substr(at, end - at));
      at = end + 1;
    } else {
      while (at < line.size() && is_blank(line[at])) ++at;
      if (at >= line.size()) break;
      std::size_t end = at;
      while (end < line.size() && !is_blank(line[end])) ++end;
      field = line.substr(at, end - at);
      at = end;
    }
    ++found.fields_seen;
    if (k == index) found.field = field;
    if (k > index) break;
  }
  return found;
}

class text_source final : public chunk_reader::source {
 public:
  text_source(std::unique_ptr<input_stream> stream, const input_options& options)
      : source(std::move(stream)),
        type_(options.type.value_or(dtype::f64)),
        column_(options.column),
        delimiter_(options.delimiter),
        skip_header_(options.skip_header) {
    if (column_ && *column_ < 1) throw usage_error(name() + ": --column counts from 1");
  }

  dtype type() const override { return type_; }
  file_format format() const override { return file_format::text; }
  std::optional<std::int64_t> total_items() const override { return std::nullopt; }

  std::int64_t read(void* out, std::int64_t max_items) override {
    auto* bytes = static_cast<std::byte*>(out);
    const std::size_t element_bytes = dtype_size(type_);
    std::int64_t count = 0;
    while (count < max_items && stream_->read_line(line_)) {
      ++line_number_;
      if (line_number_ == 1 && skip_header_) continue;
      const std::string_view line = trim(line_);
      if (line.empty() || line.front() == '#') continue;
      if (delimiter_ == 0) delimiter_ = line.find(',') != std::string_view::npos ? ',' : ' ';
      parse_line(line, bytes + static_cast<std::size_t>(count) * element_bytes);
      ++count;
    }
    items_read_ += count;
    return count;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw app_error(name() + ":" + std::to_string(line_number_) + ": " + why);
  }

  void parse_line(std::string_view line, std::byte* out) const {
    const std::int64_t index = column_.value_or(1) - 1;
    const field_lookup found = find_field(line, delimiter_, index);
    if (!column_ && found.fields_seen > 1)
      fail(std::to_string(found.fields_seen) + " fields where one number was expected; choose one with --column");
    if (found.fields_seen <= index)
      fail("no field " + std::to_string(index + 1) + " (the line has " + std::to_string(found.fields_seen) + ")");
    if (const std::string why = parse_number(found.field, type_, out); !why.empty()) {
      const bool field_named = column_.has_value();
      fail(field_named ? "field " + std::to_string(index + 1) + ": " + why : why);
    }
  }

  dtype type_;
  std::optional<std::int64_t> column_;
  char delimiter_;
  bool skip_header_;
  std::int64_t line_number_ = 0;
  std::string line_;
};

}  // namespace

std::unique_ptr<chunk_reader::source> make_text_source(std::unique_ptr<input_stream> stream,
                                                       const input_options& options) {
  return std::make_unique<text_source>(std::move(stream), options);
}

}  // namespace bkt::apps::detail
