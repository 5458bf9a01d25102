// MatrixMarket coordinate files: banner and size line read first, alone; the entries are parsed
// in parallel chunks and their total is checked against the size line.
#include <bit>
#include <limits>
#include <string>
#include <vector>

#include "io/parsers.hpp"

namespace bkt::sssp::detail {
namespace {

constexpr const char* banner_layout = "%%MatrixMarket matrix coordinate real|integer|pattern general|symmetric";
constexpr const char* size_layout = "rows cols nnz";

struct matrix_header {
  weight_kind weights = weight_kind::unit;
  bool symmetric = false;
  std::uint64_t rows = 0;
  std::uint64_t entries = 0;
  std::int64_t size_offset = 0;  // where the size line starts
  std::int64_t body = 0;         // where the line after it starts
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
void read_banner(const char* banner, const field_scanner& scanner, matrix_header& header) {
  const std::vector<std::string> words = lower_case_words(banner);
  if (words.empty() || words[0] != "%%matrixmarket")
    scanner.fail(banner, "not a MatrixMarket file: the first line must be '" + std::string(banner_layout) + "'");
  if (words.size() != 5) scanner.fail_line(banner, banner_layout);
  if (words[1] != "matrix") scanner.fail(banner, "MatrixMarket object '" + words[1] + "' is not a matrix");
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

matrix_header read_header(const text_buffer& text, const field_scanner& scanner) {
  matrix_header header;
  const char* const base = text.data();
  const char* const end = base + text.size();
  read_banner(base, scanner, header);
  for (const char* line = next_line(base); line < end; line = next_line(line)) {
    const char* p = skip_blanks(line);
    if (*p == '\n' || *p == '%') continue;
    std::uint64_t cols = 0;
    const char* field = scanner.count_field(p, header.rows, size_layout);
    field = scanner.count_field(scanner.next_field(field, size_layout), cols, size_layout);
    field = scanner.count_field(scanner.next_field(field, size_layout), header.entries, size_layout);
    header.body = scanner.end_of_line(field, size_layout) - base;
    header.size_offset = p - base;
    if (header.rows != cols)
      scanner.fail(p, "the matrix is " + std::to_string(header.rows) + " x " + std::to_string(cols) +
                          ": a graph's adjacency matrix must be square");
    if (header.rows > std::numeric_limits<vertex>::max())
      scanner.fail(p, std::to_string(header.rows) + " vertices: at most 4294967295 are supported");
    if (header.entries > std::uint64_t{std::numeric_limits<std::int64_t>::max()})
      scanner.fail(p, std::to_string(header.entries) + " entries is too many");
    return header;
  }
  scanner.fail(end - 1, "no size line 'rows cols nnz'");
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

}  // namespace

parsed_edges parse_matrix_market(const text_buffer& text, const parse_settings& settings) {
  matrix_header header;
  try {
    header = read_header(text, field_scanner(text.data(), 1, 0, false));
  } catch (const parse_failure& failure) {
    throw_failure(settings, text.view(), failure);
  }
  parsed_edges parsed;
  parsed.format = graph_format::matrix_market;
  parsed.index_base = 1;
  parsed.weights = header.weights;
  parsed.symmetric = header.symmetric;
  parsed.num_vertices = static_cast<std::int64_t>(header.rows);
  const field_scanner scanner(text.data(), 1, header.rows, false);
  parsed.chunks = split_into_chunks(text.view(), header.body, settings.threads);
  parse_chunks(parsed.chunks, text.view(), settings, [&](edge_chunk& chunk) {
    parse_entries(chunk, text, scanner, header.weights, settings.keep_weights);
  });
  check_edge_count(parsed.chunks, text.view(), settings, static_cast<std::int64_t>(header.entries), header.size_offset,
                   "entries", [](const char* line) {
                     const char first = *skip_blanks(line);
                     return first != '%' && first != '\n';
                   });
  return parsed;
}

}  // namespace bkt::sssp::detail
