// What the parsers hand the CSR builder: the input's edges in chunks of consecutive lines, each
// parsed on its own thread into its own arrays, plus the driver that splits, runs and reports.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "graph.hpp"
#include "io/graph_format.hpp"
#include "io/text_scan.hpp"

namespace bkt::sssp::detail {

/// How an input's weights are stored: none (every weight 1), 32-bit integers or floats.
enum class weight_kind { unit, integer, real };

/// The edges of one run of whole lines, in file order, with 0-based vertex ids.
struct edge_chunk {
  std::int64_t begin = 0;  // byte range of the input: begin is a line start, end one past a '\n'
  std::int64_t end = 0;    // (or the input's end)
  std::vector<vertex> sources;
  std::vector<vertex> targets;
  std::vector<std::uint32_t> weights;  // empty when not kept; float bits when weights_are_float
  bool weights_are_float = false;
  vertex max_id = 0;                  // edge lists: the largest id seen (when any edge)
  bool saw_fraction = false;          // edge lists: a weight with a fraction or exponent
  std::optional<parse_failure> failure;        // the first error; parsing stopped there
  std::optional<parse_failure> too_large;      // edge lists: the first integer weight >= 2^32
  std::int64_t num_edges() const { return static_cast<std::int64_t>(sources.size()); }
};

/// The whole input parsed.
struct parsed_edges {
  std::vector<edge_chunk> chunks;
  std::int64_t num_vertices = 0;
  weight_kind weights = weight_kind::unit;  // `real`: every chunk holds float bits
  int index_base = 0;
  bool symmetric = false;  // MatrixMarket symmetric: every off-diagonal entry stands for two edges
  graph_format format = graph_format::automatic;
  std::int64_t num_edges() const;
};

/// What every parser is told.
struct parse_settings {
  std::string name;          // the input's path, for messages
  int threads = 1;
  bool keep_weights = true;  // false when random weights replace them: they are checked, not stored
};

/// Splits the input from byte `begin` on into chunks of whole lines, about four per thread (so
/// that uneven lines still share out evenly) and none under 64 KiB.
std::vector<edge_chunk> split_into_chunks(std::string_view text, std::int64_t begin, int threads);

/// Reserves room in `chunk` for about as many edges as it has lines (estimated from a sample).
void reserve_edges(edge_chunk& chunk, std::string_view text, bool keep_weights);

/// Runs parse(chunk) for every chunk on settings.threads threads. A parse_failure thrown for a
/// chunk is kept in chunk.failure; then the first failure in file order is thrown as app_error.
void parse_chunks(std::vector<edge_chunk>& chunks, std::string_view text, const parse_settings& settings,
                  const std::function<void(edge_chunk&)>& parse);

/// The 1-based line that holds byte `offset` of `text`.
std::int64_t line_number(std::string_view text, std::int64_t offset);

/// Throws app_error "NAME:LINE: MESSAGE" for a failure at `offset`.
[[noreturn]] void throw_failure(const parse_settings& settings, std::string_view text, const parse_failure& failure);

/// Checks that the input holds exactly `declared` edges (as a header line at byte
/// `header_offset` says); too few is reported at the header, too many at the first extra line.
/// `data_line` says which lines hold an edge; `what` names them ("arcs", "entries").
void check_edge_count(const std::vector<edge_chunk>& chunks, std::string_view text, const parse_settings& settings,
                      std::int64_t declared, std::int64_t header_offset, const char* what,
                      const std::function<bool(const char* line)>& data_line);

}  // namespace bkt::sssp::detail
