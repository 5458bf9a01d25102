// The graph file formats bkt-sssp reads, by name, by extension and by content.
#pragma once

#include <string_view>

namespace bkt::sssp {

enum class graph_format { automatic, dimacs, matrix_market, edge_list };

/// "gr"/"dimacs", "mtx"/"matrix-market", "edges"/"edge-list"/"snap", "auto"/"automatic"
/// (case-insensitive); anything else is a usage error (exit 2).
graph_format parse_format_name(std::string_view name);

/// "dimacs", "matrix-market", "edge-list" or "automatic".
std::string_view format_name(graph_format format);

/// The format a file name implies, after stripping a trailing ".gz": .gr -> dimacs; .mtx ->
/// matrix_market; .txt .el .edges .edgelist .snap .tsv .csv .wel -> edge_list; else automatic.
graph_format format_from_extension(std::string_view path);

/// The format of a file whose name says none, from its first bytes: a MatrixMarket banner, a
/// DIMACS 'c' or 'p' first line, else an edge list.
graph_format format_from_content(std::string_view text);

}  // namespace bkt::sssp
