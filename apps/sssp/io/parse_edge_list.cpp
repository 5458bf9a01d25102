// SNAP-style edge lists. The first data line is read alone to learn whether lines carry a
// weight; then chunks parse in parallel. A chunk's weights start as integers and turn into floats
// at its first fraction; once every chunk is done, the file's weight kind is decided and the
// integer chunks of a float file are converted.
#include <bit>
#include <limits>

#include "io/memory_plan.hpp"
#include "io/parsers.hpp"
#include "bkt_apps/parallel_for.hpp"

namespace bkt::sssp::detail {
namespace {

constexpr std::uint64_t last_vertex_id = std::numeric_limits<vertex>::max() - 1;  // 2^32 - 1 vertices at most

bool is_comment_or_blank(const char* line) {
  const char first = *skip_blanks(line);
  return first == '#' || first == '%' || first == '\n';
}

/// The number of fields (2 or 3) of the first data line; 0 when the file holds none.
int count_fields(const text_buffer& text, const field_scanner& scanner) {
  const char* const end = text.data() + text.size();
  for (const char* line = text.data(); line < end; line = next_line(line)) {
    if (is_comment_or_blank(line)) continue;
    int fields = 0;
    for (const char* p = skip_blanks(line); *p != '\n'; ++fields) {
      while (!is_blank(*p) && *p != ',' && *p != '\n') ++p;
      p = skip_blanks(p);
      if (*p == ',') p = skip_blanks(p + 1);
    }
    if (fields != 2 && fields != 3) scanner.fail_line(skip_blanks(line), "u v' or 'u v w");
    return fields;
  }
  return 0;
}

/// Turns the integer weights kept so far into float bits (at a chunk's first fraction).
void convert_to_float(edge_chunk& chunk) {
  if (chunk.weights_are_float) return;
  for (std::uint32_t& weight : chunk.weights) weight = std::bit_cast<std::uint32_t>(static_cast<float>(weight));
  chunk.weights_are_float = true;
}

/// Appends a weight: an integer while the chunk has seen only integers below 2^32, else float bits.
void store_weight(edge_chunk& chunk, const weight_text& weight) {
  const bool needs_float = weight.is_float || weight.too_large;
  if (needs_float) convert_to_float(chunk);
  if (!chunk.weights_are_float) chunk.weights.push_back(weight.integer);
  else chunk.weights.push_back(std::bit_cast<std::uint32_t>(needs_float ? weight.real : static_cast<float>(weight.integer)));
}

/// Parses a chunk's lines. A vertex id of `vertex_limit` or more needs more memory than the
/// budget has, whatever the rest of the file holds: it stops the parse at its line.
void parse_lines(edge_chunk& chunk, const text_buffer& text, const field_scanner& scanner, bool weighted,
                 bool keep_weights, std::int64_t vertex_limit) {
  const bool store = weighted && keep_weights;
  reserve_edges(chunk, text.view(), store);
  const char* const layout = weighted ? "u v w" : "u v";
  vertex max_id = 0;
  const char* p = text.data() + chunk.begin;
  const char* const end = text.data() + chunk.end;
  while (p < end) {
    p = skip_blanks(p);
    if (*p == '#' || *p == '%' || *p == '\n') {
      p = next_line(p);
      continue;
    }
    vertex source = 0;
    vertex target = 0;
    const char* const line = p;
    p = scanner.vertex_id(p, source);
    p = scanner.vertex_id(scanner.next_field(p, layout), target);
    const vertex larger = std::max(source, target);
    if (larger >= vertex_limit)
      throw parse_failure{line - text.data(),
                          "vertex " + std::to_string(larger) + " (a graph of " + std::to_string(std::int64_t{larger} + 1) +
                              " vertices)",
                          csr_run_bytes(std::int64_t{larger} + 1, 0)};
    max_id = std::max(max_id, larger);
    if (weighted) {
      const char* field = scanner.next_field(p, layout);
      weight_text weight;
      p = scanner.weight(field, weight);
      if (weight.too_large && !chunk.too_large)
        chunk.too_large = parse_failure{field - text.data(), "weight " + token_text(std::string_view(field, static_cast<std::size_t>(p - field))) +
                                                                 " is too large: integer weights must be below 2^32"};
      chunk.saw_fraction = chunk.saw_fraction || weight.is_float;
      if (store) store_weight(chunk, weight);
    }
    p = scanner.end_of_line(p, layout);
    chunk.sources.push_back(source);
    chunk.targets.push_back(target);
  }
  chunk.max_id = max_id;
}

class edge_list : public window_parser {
 public:
  explicit edge_list(const parse_settings& settings) : window_parser(settings) {
    parsed().format = graph_format::edge_list;
    parsed().index_base = 0;
  }

 protected:
  std::optional<header_info> read_header(const text_buffer& text, bool last) override {
    // No header: the first data line tells whether lines carry a weight. A window of comments
    // alone says nothing yet.
    const int fields = count_fields(text, field_scanner(text.data(), 0, last_vertex_id, true));
    if (fields == 0 && !last) return std::nullopt;
    weighted_ = fields == 3;
    return header_info{};
  }
  void parse_chunk(edge_chunk& chunk, const text_buffer& text) const override {
    const field_scanner scanner(text.data(), 0, last_vertex_id, true);
    parse_lines(chunk, text, scanner, weighted_, settings().keep_weights, affordable_vertices(settings().memory_budget));
  }
  bool is_edge_line(const char* line) const override { return !is_comment_or_blank(line); }
  const char* edge_name() const override { return "edges"; }

  std::int64_t vertices_so_far() const override {
    std::int64_t vertices = 0;
    for (const edge_chunk& chunk : parsed().chunks)
      if (chunk.num_edges() > 0) vertices = std::max<std::int64_t>(vertices, std::int64_t{chunk.max_id} + 1);
    return vertices;
  }

  void finish_edges(parsed_edges& parsed) override {
    bool any_fraction = false;
    for (const edge_chunk& chunk : parsed.chunks) any_fraction = any_fraction || chunk.saw_fraction;
    if (weighted_ && !any_fraction)  // integer weights: one of 2^32 or more is an error after all
      for (const edge_chunk& chunk : parsed.chunks)
        if (chunk.too_large) throw_failure(settings(), *chunk.too_large);
    parsed.weights = !weighted_ ? weight_kind::unit : any_fraction ? weight_kind::real : weight_kind::integer;
    if (parsed.weights == weight_kind::real && settings().keep_weights)
      apps::parallel_for(static_cast<std::int64_t>(parsed.chunks.size()), 1, settings().threads,
                   [&](std::int64_t index, std::int64_t) { convert_to_float(parsed.chunks[static_cast<std::size_t>(index)]); });
  }

 private:
  bool weighted_ = false;
};

}  // namespace

std::unique_ptr<window_parser> edge_list_parser(const parse_settings& settings) {
  return std::make_unique<edge_list>(settings);
}

}  // namespace bkt::sssp::detail
