// The lines and fields of a text input, as the reader (text_source.cpp) and the dtype inference
// (text_dtype.cpp) both see them: blank lines and '#' comments skipped, the header skipped on
// request, the delimiter chosen by the first data line, one field picked out.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace bkt::apps::detail {

inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

inline std::string_view trim(std::string_view text) {
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

/// `delimiter`: ' ' splits on runs of spaces and tabs; any other character splits on each one, and
/// the fields are trimmed.
inline field_lookup find_field(std::string_view line, char delimiter, std::int64_t index) {
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

/// The data lines of a text input, one call per line in order: which lines hold data and, for
/// those, the field the column names.
class text_lines {
 public:
  text_lines(std::optional<std::int64_t> column, char delimiter, bool skip_header)
      : column_(column), delimiter_(delimiter), skip_header_(skip_header) {}

  /// What one line holds.
  struct data {
    bool is_data = false;         // false: a header, blank or comment line
    bool well_formed = false;     // the field exists, and is the line's only one when no column is named
    field_lookup lookup;          // the field, and how many the line has
  };

  /// The next line (without its '\n'; a '\r' before it is trimmed).
  data next(std::string_view line) {
    ++line_number_;
    data result;
    if (line_number_ == 1 && skip_header_) return result;
    const std::string_view text = trim(line);
    if (text.empty() || text.front() == '#') return result;
    if (delimiter_ == 0) delimiter_ = text.find(',') != std::string_view::npos ? ',' : ' ';
    result.is_data = true;
    result.lookup = find_field(text, delimiter_, index());
    result.well_formed = result.lookup.fields_seen > index() && (column_ || result.lookup.fields_seen == 1);
    return result;
  }

  std::int64_t line_number() const { return line_number_; }
  /// The delimiter in use: the one given, or the one the first data line chose (0 before it).
  char delimiter() const { return delimiter_; }
  std::int64_t index() const { return column_.value_or(1) - 1; }
  bool column_named() const { return column_.has_value(); }

 private:
  std::optional<std::int64_t> column_;
  char delimiter_;
  bool skip_header_;
  std::int64_t line_number_ = 0;
};

}  // namespace bkt::apps::detail
