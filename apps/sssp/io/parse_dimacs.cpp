// DIMACS .gr: the problem line is found first (alone, before the arcs), then the arcs are
// parsed in parallel chunks and their total is checked against it.
#include <limits>

#include "io/parsers.hpp"

namespace bkt::sssp::detail {
namespace {

constexpr const char* arc_layout = "a U V W";
constexpr const char* problem_layout = "p sp N M";

struct problem_line {
  std::uint64_t num_vertices = 0;
  std::uint64_t num_arcs = 0;
  std::int64_t offset = 0;     // where the line starts
  std::int64_t body = 0;       // where the line after it starts
};

problem_line read_problem_line(const text_buffer& text, const field_scanner& scanner) {
  const char* const base = text.data();
  const char* const end = base + text.size();
  for (const char* line = base; line < end; line = next_line(line)) {
    const char* p = skip_blanks(line);
    if (*p == '\n' || *p == 'c') continue;
    if (*p == 'a') scanner.fail(p, "arc before the problem line 'p sp N M'");
    if (*p != 'p' || !is_blank(p[1])) scanner.fail_line(p, problem_layout);
    const char* kind = skip_blanks(p + 1);
    if (kind[0] != 's' || kind[1] != 'p' || !is_blank(kind[2])) scanner.fail_line(p, problem_layout);
    problem_line problem;
    const char* field = scanner.count_field(scanner.next_field(kind + 2, problem_layout), problem.num_vertices, problem_layout);
    field = scanner.count_field(scanner.next_field(field, problem_layout), problem.num_arcs, problem_layout);
    problem.body = scanner.end_of_line(field, problem_layout) - base;
    problem.offset = p - base;
    if (problem.num_vertices > std::numeric_limits<vertex>::max())
      scanner.fail(p, std::to_string(problem.num_vertices) + " vertices: at most 4294967295 are supported");
    if (problem.num_arcs > std::uint64_t{std::numeric_limits<std::int64_t>::max()})
      scanner.fail(p, std::to_string(problem.num_arcs) + " arcs is too many");
    return problem;
  }
  scanner.fail(text.size() > 0 ? end - 1 : end, "no problem line 'p sp N M'");
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

}  // namespace

parsed_edges parse_dimacs(const text_buffer& text, const parse_settings& settings) {
  parsed_edges parsed;
  parsed.format = graph_format::dimacs;
  parsed.index_base = 1;
  parsed.weights = weight_kind::integer;
  problem_line problem;
  try {
    problem = read_problem_line(text, field_scanner(text.data(), 1, 0, false));
  } catch (const parse_failure& failure) {
    throw_failure(settings, text.view(), failure);
  }
  parsed.num_vertices = static_cast<std::int64_t>(problem.num_vertices);
  const field_scanner scanner(text.data(), 1, problem.num_vertices, false);
  parsed.chunks = split_into_chunks(text.view(), problem.body, settings.threads);
  parse_chunks(parsed.chunks, text.view(), settings,
               [&](edge_chunk& chunk) { parse_arcs(chunk, text, scanner, settings.keep_weights); });
  check_edge_count(parsed.chunks, text.view(), settings, static_cast<std::int64_t>(problem.num_arcs), problem.offset,
                   "arcs", [](const char* line) { return *skip_blanks(line) == 'a'; });
  return parsed;
}

}  // namespace bkt::sssp::detail
