// Parsing the .npy header's Python dict literal: {'descr': '<f8', 'fortran_order': False,
// 'shape': (3, 4), }. Only what numpy.save writes is accepted: strings, True/False, int tuples.
#include "npy_header.hpp"

#include <bit>
#include <cctype>
#include <charconv>
#include <limits>
#include <optional>

#include "bkt_apps/app_error.hpp"

namespace bkt::apps::detail {
namespace {

/// A cursor over the dict text; every failure names the file.
class dict_parser {
 public:
  dict_parser(std::string_view text, const std::string& name) : text_(text), name_(name) {}

  [[noreturn]] void fail(const std::string& why) const { throw app_error(name_ + ": malformed .npy header: " + why); }
  void skip_space() {
    while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
  }
  bool accept(char c) {
    skip_space();
    if (at_ < text_.size() && text_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!accept(c)) fail("expected " + quoted_excerpt(std::string_view(&c, 1)));
  }
  bool peek_is(char c) {
    skip_space();
    return at_ < text_.size() && text_[at_] == c;
  }
  std::string string_literal() {
    skip_space();
    if (at_ >= text_.size() || (text_[at_] != '\'' && text_[at_] != '"')) fail("expected a quoted string");
    const char quote = text_[at_++];
    const std::size_t end = text_.find(quote, at_);
    if (end == std::string_view::npos) fail("unterminated string");
    std::string value(text_.substr(at_, end - at_));
    at_ = end + 1;
    return value;
  }
  bool boolean_literal() {
    skip_space();
    for (const auto& [word, value] :
         {std::pair{std::string_view("True"), true}, std::pair{std::string_view("False"), false}})
      if (text_.substr(at_, word.size()) == word) {
        at_ += word.size();
        return value;
      }
    fail("expected True or False");
  }
  std::vector<std::int64_t> int_tuple() {
    expect('(');
    std::vector<std::int64_t> values;
    while (!accept(')')) {
      skip_space();
      std::int64_t value = 0;
      const auto [end, ec] = std::from_chars(text_.data() + at_, text_.data() + text_.size(), value);
      if (ec != std::errc() || value < 0) fail("shape must hold non-negative integers");
      at_ = static_cast<std::size_t>(end - text_.data());
      accept('L');  // Python 2 wrote long integers with a suffix
      values.push_back(value);
      if (!accept(',')) {
        expect(')');
        break;
      }
    }
    return values;
  }
  bool at_end() {
    skip_space();
    return at_ == text_.size();
  }

 private:
  std::string_view text_;
  const std::string& name_;
  std::size_t at_ = 0;
};

/// The dtype of a descr such as '<f8' or '|u1'; throws for what the tools cannot read.
void parse_descr(const std::string& descr, npy_header& header, const std::string& name) {
  const auto unsupported = [&](const std::string& why) {
    return app_error(name + ": " + why + " (supported: " + std::string(dtype_list()) + ")");
  };
  if (descr.size() < 2) throw unsupported("unsupported dtype " + quoted_excerpt(descr));
  const char order = descr[0];
  if (order != '<' && order != '>' && order != '|' && order != '=')
    throw unsupported("unsupported dtype " + quoted_excerpt(descr));
  const std::string code = descr.substr(1);
  if (code[0] == 'O') throw app_error(name + ": object arrays (dtype '" + descr + "') are not supported");
  static constexpr std::pair<std::string_view, dtype> codes[] = {
      {"u1", dtype::u8},  {"u2", dtype::u16}, {"u4", dtype::u32}, {"u8", dtype::u64}, {"i1", dtype::i8},
      {"i2", dtype::i16}, {"i4", dtype::i32}, {"i8", dtype::i64}, {"f2", dtype::f16}, {"f4", dtype::f32},
      {"f8", dtype::f64}};
  for (const auto& [text, type] : codes)
    if (code == text) {
      header.type = type;
      header.big_endian = order == '>' || (order == '=' && std::endian::native == std::endian::big);
      return;
    }
  throw unsupported("unsupported dtype " + quoted_excerpt(descr));
}

template <class T>
T little_endian_value(std::string_view bytes) {
  T value = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i) value |= static_cast<T>(static_cast<unsigned char>(bytes[i])) << (8 * i);
  return value;
}

}  // namespace

std::int64_t npy_header::num_items() const {
  std::int64_t count = 1;
  for (const std::int64_t extent : shape) count *= extent;  // read_npy_header rules out overflow
  return count;
}

npy_header read_npy_header(input_stream& stream) {
  const std::string& name = stream.name();
  const std::string_view lead = stream.peek(12);
  if (lead.substr(0, npy_magic.size()) != npy_magic) throw app_error(name + ": not a .npy file (no \\x93NUMPY magic)");
  if (lead.size() < 10) throw app_error(name + ": truncated .npy header");
  const int major = static_cast<unsigned char>(lead[6]);
  const int minor = static_cast<unsigned char>(lead[7]);
  if (major < 1 || major > 3 || minor != 0)
    throw app_error(name + ": unsupported .npy format version " + std::to_string(major) + "." + std::to_string(minor));
  const std::size_t length_bytes = major == 1 ? 2 : 4;
  if (lead.size() < 8 + length_bytes) throw app_error(name + ": truncated .npy header");
  const std::size_t dict_bytes = major == 1 ? little_endian_value<std::uint16_t>(lead.substr(8))
                                            : little_endian_value<std::uint32_t>(lead.substr(8));
  char skipped[12];
  stream.read(skipped, 8 + length_bytes);
  if (dict_bytes > (std::size_t{1} << 24))
    throw app_error(name + ": malformed .npy header: " + std::to_string(dict_bytes) + " bytes long");
  std::string dict(dict_bytes, '\0');
  if (stream.read(dict.data(), dict_bytes) != dict_bytes) throw app_error(name + ": truncated .npy header");

  npy_header header;
  header.header_bytes = static_cast<std::int64_t>(8 + length_bytes + dict_bytes);
  dict_parser parser(dict, name);
  bool seen_descr = false, seen_order = false, seen_shape = false;
  parser.expect('{');
  while (!parser.accept('}')) {
    const std::string key = parser.string_literal();
    parser.expect(':');
    if (key == "descr") {
      if (parser.peek_is('[')) throw app_error(name + ": structured dtypes (records) are not supported");
      parse_descr(parser.string_literal(), header, name);
      seen_descr = true;
    } else if (key == "fortran_order") {
      header.fortran_order = parser.boolean_literal();
      seen_order = true;
    } else if (key == "shape") {
      header.shape = parser.int_tuple();
      seen_shape = true;
    } else {
      parser.fail("unknown key " + quoted_excerpt(key));
    }
    if (!parser.accept(',')) {
      parser.expect('}');
      break;
    }
  }
  if (!parser.at_end()) parser.fail("text after the dict");
  if (!seen_descr || !seen_order || !seen_shape) parser.fail("it needs 'descr', 'fortran_order' and 'shape'");

  std::int64_t count = 1;
  std::string dims;
  for (const std::int64_t extent : header.shape) {
    dims += (dims.empty() ? "" : " x ") + std::to_string(extent);
    if (extent != 0 && count > std::numeric_limits<std::int64_t>::max() / 8 / extent) parser.fail("shape too large");
    count *= extent;
  }
  if (header.shape.size() > 2)
    throw app_error(name + ": " + std::to_string(header.shape.size()) + "-D array (" + dims +
                    "): only 1-D arrays or one column of a 2-D array can be read");
  if (header.fortran_order && header.shape.size() == 2)  // 1-D arrays are laid out alike either way
    throw app_error(name +
                    ": Fortran-order (column-major) 2-D arrays are not supported; "
                    "save it with numpy.ascontiguousarray first");
  return header;
}

std::string format_npy_header(dtype type, std::int64_t count, std::size_t min_bytes) {
  const char order = dtype_size(type) == 1 ? '|' : (std::endian::native == std::endian::big ? '>' : '<');
  const char kind = dtype_is_float(type) ? 'f' : (dtype_is_signed(type) ? 'i' : 'u');
  std::string dict = std::string("{'descr': '") + order + kind + std::to_string(dtype_size(type)) +
                     "', 'fortran_order': False, 'shape': (" + std::to_string(count) + ",), }";
  const std::size_t prefix = npy_magic.size() + 4;  // magic, version 1.0, 16-bit length
  std::size_t total = prefix + dict.size() + 1;     // the dict ends with '\n'
  total = (total + 63) / 64 * 64;
  if (total < min_bytes) total = (min_bytes + 63) / 64 * 64;
  dict.append(total - prefix - dict.size() - 1, ' ');
  dict.push_back('\n');
  const std::size_t dict_bytes = dict.size();
  std::string header(npy_magic);
  header.push_back('\x01');
  header.push_back('\x00');
  header.push_back(static_cast<char>(dict_bytes & 0xff));
  header.push_back(static_cast<char>(dict_bytes >> 8));
  return header + dict;
}

}  // namespace bkt::apps::detail
