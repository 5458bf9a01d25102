// SNAP-style edge lists. The first data line is read alone to learn whether lines carry a
// weight; then chunks parse in parallel. A chunk's weights start as integers and turn into floats
// at its first fraction; once every chunk is done, the file's weight kind is decided and the
// integer chunks of a float file are converted.
#include <bit>
#include <limits>

#include "io/parsers.hpp"
#include "parallel_for.hpp"

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

void parse_lines(edge_chunk& chunk, const text_buffer& text, const field_scanner& scanner, bool weighted,
                 bool keep_weights) {
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
    p = scanner.vertex_id(p, source);
    p = scanner.vertex_id(scanner.next_field(p, layout), target);
    max_id = std::max(max_id, std::max(source, target));
    if (weighted) {
      const char* field = scanner.next_field(p, layout);
      weight_text weight;
      p = scanner.weight(field, weight);
      if (weight.too_large && !chunk.too_large)
        chunk.too_large = parse_failure{field - text.data(), "weight " + std::string(field, p) +
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

}  // namespace

parsed_edges parse_edge_list(const text_buffer& text, const parse_settings& settings) {
  const field_scanner scanner(text.data(), 0, last_vertex_id, true);
  int fields = 0;
  try {
    fields = count_fields(text, scanner);
  } catch (const parse_failure& failure) {
    throw_failure(settings, text.view(), failure);
  }
  parsed_edges parsed;
  parsed.format = graph_format::edge_list;
  parsed.index_base = 0;
  const bool weighted = fields == 3;
  parsed.chunks = split_into_chunks(text.view(), 0, settings.threads);
  parse_chunks(parsed.chunks, text.view(), settings, [&](edge_chunk& chunk) {
    parse_lines(chunk, text, scanner, weighted, settings.keep_weights);
  });

  bool any_fraction = false;
  for (const edge_chunk& chunk : parsed.chunks) {
    any_fraction = any_fraction || chunk.saw_fraction;
    if (chunk.num_edges() > 0) parsed.num_vertices = std::max<std::int64_t>(parsed.num_vertices, std::int64_t{chunk.max_id} + 1);
  }
  if (weighted && !any_fraction)  // integer weights: one of 2^32 or more is an error after all
    for (const edge_chunk& chunk : parsed.chunks)
      if (chunk.too_large) throw_failure(settings, text.view(), *chunk.too_large);
  parsed.weights = !weighted ? weight_kind::unit : any_fraction ? weight_kind::real : weight_kind::integer;
  if (parsed.weights == weight_kind::real && settings.keep_weights)
    parallel_for(static_cast<std::int64_t>(parsed.chunks.size()), 1, settings.threads,
                 [&](std::int64_t index, std::int64_t) { convert_to_float(parsed.chunks[static_cast<std::size_t>(index)]); });
  return parsed;
}

}  // namespace bkt::sssp::detail
