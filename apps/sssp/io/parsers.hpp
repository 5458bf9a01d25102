// The three graph file parsers. Each checks its format strictly and throws app_error
// "FILE:LINE: problem" at the first error in file order.
#pragma once

#include <memory>

#include "io/parsed_edges.hpp"

namespace bkt::sssp::detail {

/// DIMACS 9th challenge .gr: 'c' comments, one 'p sp N M' line before any arc, then exactly M
/// arcs 'a U V W' with U, V in 1..N and W an integer below 2^32. index_base 1.
std::unique_ptr<window_parser> dimacs_parser(const parse_settings& settings);

/// MatrixMarket coordinate real|integer|pattern, general|symmetric: '%' comments, a square
/// 'rows cols nnz' size line, then exactly nnz entries 'i j [w]', edge i -> j. index_base 1.
std::unique_ptr<window_parser> matrix_market_parser(const parse_settings& settings);

/// SNAP-style edge list: '#' or '%' comments, blank lines, 'u v [w]' 0-based, separated by
/// blanks or a comma; the first data line decides 2 or 3 fields. Vertices: the largest id + 1.
/// Weights are floats when any has a fraction or exponent, else integers below 2^32.
std::unique_ptr<window_parser> edge_list_parser(const parse_settings& settings);

}  // namespace bkt::sssp::detail
