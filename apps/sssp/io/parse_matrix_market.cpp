// MatrixMarket coordinate files: banner and size line read first, alone; the entries are parsed
// in parallel chunks, window by window, and their total is checked against the size line.
#include <bit>
#include <limits>
#include <string>
#include <vector>

#include "bkt_apps/app_error.hpp"
#include "io/parsers.hpp"

namespace bkt::sssp::detail {
namespace {

constexpr const char* banner_layout = "%%MatrixMarket matrix coordinate real|integer|pattern general|symmetric";
constexpr const char* size_layout = "rows cols nnz";

/// What the banner says.
struct matrix_banner {
  weight_kind weights = weight_kind::unit;
  bool symmetric = false;
};

std::vector<std::string> lower_case_words(const char* p) {
  std::vector<std::string> words;
  for (p = skip_blanks(p); *p != '\n'; p = skip_blanks(p)) {
    std::string& word = words.emplace_back();
    for (; !is_blank(*p) && *p != '\n'; ++p) word.push_back(*p >= 'A' && *p <= 'Z' ? static_cast<char>(*p - 'A' + 'a') : *p);
  }
  return words;
}

/// The banner's words after "%%MatrixMarket": object, format, field, symmetry.
void read_banner(const char* banner, const field_scanner& scanner, matrix_banner& header) {
  const std::vector<std::string> words = lower_case_words(banner);
  if (words.empty() || words[0] != "%%matrixmarket")
    scanner.fail(banner, "not a MatrixMarket file: the first line must be '" + std::string(banner_layout) + "'");
  if (words.size() != 5) scanner.fail_line(banner, banner_layout);
  if (words[1] != "matrix") scanner.fail(banner, "MatrixMarket object " + apps::quoted_excerpt(words[1], 40) + " is not a matrix");
  if (words[2] == "array")
    scanner.fail(banner, "dense MatrixMarket 'array' files are not supported: a graph needs 'coordinate'");
  if (words[2] != "coordinate") scanner.fail_line(banner, banner_layout);
  if (words[3] == "real") header.weights = weight_kind::real;
  else if (words[3] == "integer") header.weights = weight_kind::integer;
  else if (words[3] == "pattern") header.weights = weight_kind::unit;
  else if (words[3] == "complex") scanner.fail(banner, "complex MatrixMarket values are not supported: expected real, integer or pattern");
  else scanner.fail_line(banner, banner_layout);
  if (words[4] == "symmetric") header.symmetric = true;
  else if (words[4] == "hermitian" || words[4] == "skew-symmetric")
    scanner.fail(banner, words[4] + " MatrixMarket matrices are not supported: expected general or symmetric");
  else if (words[4] != "general") scanner.fail_line(banner, banner_layout);
}

/// The size line after the banner and comments; nullopt when the window ends first.
std::optional<header_info> read_size_line(const text_buffer& text, const char* from, bool last) {
  const field_scanner scanner(text.data(), 1, 0, false);
  const char* const base = text.data();
  const char* const end = base + text.size();
  for (const char* line = from; line < end; line = next_line(line)) {
    const char* p = skip_blanks(line);
    if (*p == '\n' || *p == '%') continue;
    std::uint64_t rows = 0;
    std::uint64_t cols = 0;
    std::uint64_t entries = 0;
    const char* field = scanner.count_field(p, rows, size_layout);
    field = scanner.count_field(scanner.next_field(field, size_layout), cols, size_layout);
    field = scanner.count_field(scanner.next_field(field, size_layout), entries, size_layout);
    header_info header;
    header.body = scanner.end_of_line(field, size_layout) - base;
    header.offset = p - base;
    if (rows != cols)
      scanner.fail(p, "the matrix is " + std::to_string(rows) + " x " + std::to_string(cols) +
                          ": a graph's adjacency matrix must be square");
    if (rows > std::numeric_limits<vertex>::max())
      scanner.fail(p, std::to_string(rows) + " vertices: at most 4294967295 are supported");
    if (entries > std::uint64_t{std::numeric_limits<std::int64_t>::max()})
      scanner.fail(p, std::to_string(entries) + " entries is too many");
    header.num_vertices = static_cast<std::int64_t>(rows);
    header.num_edges = static_cast<std::int64_t>(entries);
    return header;
  }
  if (last) scanner.fail(text.size() > 0 ? end - 1 : end, "no size line 'rows cols nnz'");
  return std::nullopt;
}

void parse_entries(edge_chunk& chunk, const text_buffer& text, const field_scanner& scanner, weight_kind weights,
                   bool keep_weights) {
  const bool store = keep_weights && weights != weight_kind::unit;
  reserve_edges(chunk, text.view(), store);
  chunk.weights_are_float = weights == weight_kind::real;
  const char* const layout = weights == weight_kind::unit ? "i j" : "i j w";
  const char* p = text.data() + chunk.begin;
  const char* const end = text.data() + chunk.end;
  while (p < end) {
    p = skip_blanks(p);
    if (*p == '%' || *p == '\n') {
      p = next_line(p);
      continue;
    }
    vertex row = 0;
    vertex column = 0;
    p = scanner.vertex_id(p, row);
    p = scanner.vertex_id(scanner.next_field(p, layout), column);
    std::uint32_t weight_bits = 1;
    if (weights == weight_kind::integer) {
      p = scanner.integer_weight(scanner.next_field(p, layout), weight_bits);
    } else if (weights == weight_kind::real) {
      float weight = 0;
      p = scanner.float_weight(scanner.next_field(p, layout), weight);
      weight_bits = std::bit_cast<std::uint32_t>(weight);
    }
    p = scanner.end_of_line(p, layout);
    chunk.sources.push_back(row);
    chunk.targets.push_back(column);
    if (store) chunk.weights.push_back(weight_bits);
  }
}

class matrix_market : public window_parser {
 public:
  explicit matrix_market(const parse_settings& settings) : window_parser(settings) {
    parsed().format = graph_format::matrix_market;
    parsed().index_base = 1;
  }

 protected:
  std::optional<header_info> read_header(const text_buffer& text, bool last) override {
    const char* from = text.data();
    if (!banner_read_) {  // the banner is the input's first line, so the first window's
      read_banner(text.data(), field_scanner(text.data(), 1, 0, false), banner_);
      banner_read_ = true;
      parsed().weights = banner_.weights;
      parsed().symmetric = banner_.symmetric;
      from = next_line(from);
    }
    std::optional<header_info> header = read_size_line(text, from, last);
    if (header) header->symmetric = banner_.symmetric;
    return header;
  }
  void parse_chunk(edge_chunk& chunk, const text_buffer& text) const override {
    const field_scanner scanner(text.data(), 1, static_cast<std::uint64_t>(*header()->num_vertices), false);
    parse_entries(chunk, text, scanner, banner_.weights, settings().keep_weights);
  }
  bool is_edge_line(const char* line) const override {
    const char first = *skip_blanks(line);
    return first != '%' && first != '\n';
  }
  const char* edge_name() const override { return "entries"; }

 private:
  bool banner_read_ = false;
  matrix_banner banner_;
};

}  // namespace

std::unique_ptr<window_parser> matrix_market_parser(const parse_settings& settings) {
  return std::make_unique<matrix_market>(settings);
}

}  // namespace bkt::sssp::detail
