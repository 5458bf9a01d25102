// Format names and guesses; the parsers themselves live in parse_*.cpp.
#include "io/graph_format.hpp"

#include <array>
#include <string>

#include "bkt_apps/app_error.hpp"

namespace bkt::sssp {
namespace {

std::string lower_case(std::string_view text) {
  std::string lower(text);
  for (char& c : lower)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return lower;
}

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

}  // namespace

graph_format parse_format_name(std::string_view name) {
  const std::string lower = lower_case(name);
  if (lower == "gr" || lower == "dimacs") return graph_format::dimacs;
  if (lower == "mtx" || lower == "matrix-market" || lower == "matrixmarket") return graph_format::matrix_market;
  if (lower == "edges" || lower == "edge-list" || lower == "snap") return graph_format::edge_list;
  if (lower == "auto" || lower == "automatic") return graph_format::automatic;
  throw apps::usage_error("unknown graph format '" + std::string(name) +
                          "': expected gr (dimacs), mtx (matrix-market) or edges (edge-list, snap)");
}

std::string_view format_name(graph_format format) {
  switch (format) {
    case graph_format::dimacs:
      return "dimacs";
    case graph_format::matrix_market:
      return "matrix-market";
    case graph_format::edge_list:
      return "edge-list";
    case graph_format::automatic:
      break;
  }
  return "automatic";
}

graph_format format_from_extension(std::string_view path) {
  std::string name = lower_case(path);
  if (ends_with(name, ".gz")) name.resize(name.size() - 3);
  if (ends_with(name, ".gr")) return graph_format::dimacs;
  if (ends_with(name, ".mtx")) return graph_format::matrix_market;
  constexpr std::array<std::string_view, 8> edge_list_extensions{".txt", ".el",   ".edges", ".edgelist",
                                                                 ".snap", ".tsv", ".csv",   ".wel"};
  for (const std::string_view extension : edge_list_extensions)
    if (ends_with(name, extension)) return graph_format::edge_list;
  return graph_format::automatic;
}

graph_format format_from_content(std::string_view text) {
  if (lower_case(text.substr(0, 14)) == "%%matrixmarket") return graph_format::matrix_market;
  std::size_t start = 0;
  while (start < text.size() && (text[start] == ' ' || text[start] == '\t')) ++start;
  // A DIMACS file opens with a comment or its problem line; an edge list's lines start with digits.
  if (start + 1 < text.size() && (text[start] == 'c' || text[start] == 'p') &&
      (text[start + 1] == ' ' || text[start + 1] == '\t' || text[start + 1] == '\n' || text[start + 1] == '\r'))
    return graph_format::dimacs;
  return graph_format::edge_list;
}

}  // namespace bkt::sssp
