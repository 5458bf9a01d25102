// The three graph file parsers. Each checks its format strictly and throws app_error
// "FILE:LINE: problem" at the first error in file order.
#pragma once

#include "io/parsed_edges.hpp"
#include "io/text_buffer.hpp"

namespace bkt::sssp::detail {

/// DIMACS 9th challenge .gr: 'c' comments, one 'p sp N M' line before any arc, then exactly M
/// arcs 'a U V W' with U, V in 1..N and W an integer below 2^32. index_base 1.
parsed_edges parse_dimacs(const text_buffer& text, const parse_settings& settings);

/// MatrixMarket coordinate real|integer|pattern, general|symmetric: '%' comments, a square
/// 'rows cols nnz' size line, then exactly nnz entries 'i j [w]', edge i -> j. index_base 1.
parsed_edges parse_matrix_market(const text_buffer& text, const parse_settings& settings);

/// SNAP-style edge list: '#' or '%' comments, blank lines, 'u v [w]' 0-based, separated by
/// blanks or a comma; the first data line decides 2 or 3 fields. Vertices: the largest id + 1.
/// Weights are floats when any has a fraction or exponent, else integers below 2^32.
parsed_edges parse_edge_list(const text_buffer& text, const parse_settings& settings);

}  // namespace bkt::sssp::detail
