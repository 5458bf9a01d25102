// DIMACS .gr: the problem line is found first (alone, before the arcs), then the arcs are
// parsed in parallel chunks, window by window, and their total is checked against it.
#include <limits>

#include "io/parsers.hpp"

namespace bkt::sssp::detail {
namespace {

constexpr const char* arc_layout = "a U V W";
constexpr const char* problem_layout = "p sp N M";

/// The problem line, found alone before the arcs (in the first windows that hold more than comments).
std::optional<header_info> read_problem_line(const text_buffer& text, bool last) {
  const field_scanner scanner(text.data(), 1, 0, false);
  const char* const base = text.data();
  const char* const end = base + text.size();
  for (const char* line = base; line < end; line = next_line(line)) {
    const char* p = skip_blanks(line);
    if (*p == '\n' || *p == 'c') continue;
    if (*p == 'a') scanner.fail(p, "arc before the problem line 'p sp N M'");
    if (*p != 'p' || !is_blank(p[1])) scanner.fail_line(p, problem_layout);
    const char* kind = skip_blanks(p + 1);
    if (kind[0] != 's' || kind[1] != 'p' || !is_blank(kind[2])) scanner.fail_line(p, problem_layout);
    std::uint64_t num_vertices = 0;
    std::uint64_t num_arcs = 0;
    const char* field = scanner.count_field(scanner.next_field(kind + 2, problem_layout), num_vertices, problem_layout);
    field = scanner.count_field(scanner.next_field(field, problem_layout), num_arcs, problem_layout);
    header_info header;
    header.body = scanner.end_of_line(field, problem_layout) - base;
    header.offset = p - base;
    if (num_vertices > std::numeric_limits<vertex>::max())
      scanner.fail(p, std::to_string(num_vertices) + " vertices: at most 4294967295 are supported");
    if (num_arcs > std::uint64_t{std::numeric_limits<std::int64_t>::max()})
      scanner.fail(p, std::to_string(num_arcs) + " arcs is too many");
    header.num_vertices = static_cast<std::int64_t>(num_vertices);
    header.num_edges = static_cast<std::int64_t>(num_arcs);
    return header;
  }
  if (last) scanner.fail(text.size() > 0 ? end - 1 : end, "no problem line 'p sp N M'");
  return std::nullopt;
}

void parse_arcs(edge_chunk& chunk, const text_buffer& text, const field_scanner& scanner, bool keep_weights) {
  reserve_edges(chunk, text.view(), keep_weights);
  const char* p = text.data() + chunk.begin;
  const char* const end = text.data() + chunk.end;
  while (p < end) {
    p = skip_blanks(p);
    if (*p == 'a' && is_blank(p[1])) {
      vertex source = 0;
      vertex target = 0;
      std::uint32_t weight = 0;
      p = scanner.vertex_id(scanner.next_field(p + 1, arc_layout), source);
      p = scanner.vertex_id(scanner.next_field(p, arc_layout), target);
      p = scanner.integer_weight(scanner.next_field(p, arc_layout), weight);
      p = scanner.end_of_line(p, arc_layout);
      chunk.sources.push_back(source);
      chunk.targets.push_back(target);
      if (keep_weights) chunk.weights.push_back(weight);
    } else if (*p == 'c' || *p == '\n') {
      p = next_line(p);
    } else if (*p == 'p') {
      scanner.fail(p, "a second problem line");
    } else {
      scanner.fail_line(p, arc_layout);
    }
  }
}

class dimacs : public window_parser {
 public:
  explicit dimacs(const parse_settings& settings) : window_parser(settings) {
    parsed().format = graph_format::dimacs;
    parsed().index_base = 1;
    parsed().weights = weight_kind::integer;
  }

 protected:
  std::optional<header_info> read_header(const text_buffer& text, bool last) override {
    return read_problem_line(text, last);
  }
  void parse_chunk(edge_chunk& chunk, const text_buffer& text) const override {
    const field_scanner scanner(text.data(), 1, static_cast<std::uint64_t>(*header()->num_vertices), false);
    parse_arcs(chunk, text, scanner, settings().keep_weights);
  }
  bool is_edge_line(const char* line) const override { return *skip_blanks(line) == 'a'; }
  const char* edge_name() const override { return "arcs"; }
};

}  // namespace

std::unique_ptr<window_parser> dimacs_parser(const parse_settings& settings) { return std::make_unique<dimacs>(settings); }

}  // namespace bkt::sssp::detail
