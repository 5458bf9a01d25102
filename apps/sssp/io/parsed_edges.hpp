// What the parsers hand the CSR builder: the input's edges in chunks of consecutive lines, each
// parsed on its own thread into its own arrays; and window_parser, the driver every format shares,
// fed the text a window at a time (the whole file, or a window of a gzip stream).
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "graph.hpp"
#include "io/graph_format.hpp"
#include "io/input_file.hpp"
#include "io/text_scan.hpp"

namespace bkt::sssp::detail {

/// How an input's weights are stored: none (every weight 1), 32-bit integers or floats.
enum class weight_kind { unit, integer, real };

/// The edges of one run of whole lines, in file order, with 0-based vertex ids.
struct edge_chunk {
  std::int64_t begin = 0;  // byte range of the window: begin is a line start, end one past a '\n'
  std::int64_t end = 0;    // (or the window's end)
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
  bool add_reverse = false;  // --undirected: the CSR will hold twice the edges (for the memory plan)
  std::int64_t memory_budget = std::numeric_limits<std::int64_t>::max();  // host bytes the graph may take
};

/// What a format's header says.
struct header_info {
  std::int64_t body = 0;    // where the edge lines start in the window that holds the header
  std::int64_t offset = 0;  // where the header line starts (messages about the declared count)
  std::optional<std::int64_t> num_vertices;  // declared (DIMACS, MatrixMarket)
  std::optional<std::int64_t> num_edges;     // declared (DIMACS, MatrixMarket)
  bool symmetric = false;                    // every entry stands for two edges
};

/// The parser of one format, fed an input's text a window at a time (read_input_windows' consume).
/// It reads the header, then parses each window's edge lines in parallel chunks; it checks the
/// declared edge count and the memory plan (io/memory_plan.hpp) window by window, so a bad or
/// too large input stops before the rest is read; and it reports the first problem in file order
/// as app_error "FILE:LINE: problem".
class window_parser {
 public:
  explicit window_parser(parse_settings settings) : settings_(std::move(settings)) {}
  virtual ~window_parser() = default;
  window_parser(const window_parser&) = delete;
  window_parser& operator=(const window_parser&) = delete;

  /// Parses the lines of one window (windows come in file order).
  void parse_window(const text_window& window);
  /// The edges, after the last window.
  parsed_edges finish();

 protected:
  /// Reads header lines from the start of `text` (called for each window until it returns the
  /// header; a format may keep state between calls); nullopt when the window ends first. When
  /// `last`, the input ends with this window. Throws parse_failure.
  virtual std::optional<header_info> read_header(const text_buffer& text, bool last) = 0;
  /// Parses the edge lines of chunk.begin .. chunk.end of `text`; throws parse_failure.
  virtual void parse_chunk(edge_chunk& chunk, const text_buffer& text) const = 0;
  /// Whether `line` holds an edge (to find the first edge past the declared count).
  virtual bool is_edge_line(const char* line) const = 0;
  /// The format's last checks and fields once every window is parsed (throws parse_failure with
  /// its line resolved).
  virtual void finish_edges(parsed_edges& parsed) { (void)parsed; }
  /// The largest vertex count the chunks parsed so far imply (edge lists: the largest id + 1).
  virtual std::int64_t vertices_so_far() const { return header_ && header_->num_vertices ? *header_->num_vertices : 0; }
  /// What the format calls its edges in messages ("arcs", "entries", "edges").
  virtual const char* edge_name() const = 0;

  const parse_settings& settings() const { return settings_; }
  const std::optional<header_info>& header() const { return header_; }
  parsed_edges& parsed() { return parsed_; }
  const parsed_edges& parsed() const { return parsed_; }

 private:
  /// Throws the first failure of the window's chunks in file order.
  void throw_first_failure(const std::vector<edge_chunk>& chunks, const text_window& window) const;
  /// Throws when the edges parsed so far pass the declared count, at the first edge line past it.
  void check_too_many(const std::vector<edge_chunk>& chunks, const text_window& window) const;
  /// Refuses a graph that the edges parsed so far already make larger than the memory budget
  /// (before the last window; finish() checks the whole graph).
  void check_memory(const text_window& window) const;

  parse_settings settings_;
  parsed_edges parsed_;
  std::optional<header_info> header_;
  std::int64_t header_line_ = 0;    // the header line's number, for "declares N but has M"
  std::int64_t edges_so_far_ = 0;
};

/// Splits `text` from byte `begin` on into chunks of whole lines, about four per thread (so that
/// uneven lines still share out evenly) and none under 64 KiB.
std::vector<edge_chunk> split_into_chunks(std::string_view text, std::int64_t begin, int threads);

/// Reserves room in `chunk` for about as many edges as it has lines (estimated from a sample).
void reserve_edges(edge_chunk& chunk, std::string_view text, bool keep_weights);

/// The 1-based line that holds byte `offset` of the window.
std::int64_t line_number(const text_window& window, std::int64_t offset);

/// `failure` with its line resolved in `window` (when it is not yet).
parse_failure located(parse_failure failure, const text_window& window);

/// Throws the app_error for a failure whose line is resolved: "NAME:LINE: MESSAGE", or the memory
/// refusal of apps::require_host_memory when failure.needed_bytes is set.
[[noreturn]] void throw_failure(const parse_settings& settings, const parse_failure& failure);

}  // namespace bkt::sssp::detail
