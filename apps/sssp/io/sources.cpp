// Sources: range checks, .ss files (read like the graph files, with the same scanner and
// FILE:LINE messages) and seeded random draws.
#include "io/sources.hpp"

#include <algorithm>
#include <random>
#include <string_view>

#include "bkt_apps/app_error.hpp"
#include "io/input_file.hpp"
#include "io/parsed_edges.hpp"
#include "io/text_scan.hpp"

namespace bkt::sssp {
namespace {

constexpr const char* problem_layout = "p aux sp ss K";
constexpr const char* source_layout = "s V";

/// True when the line at p starts with `word` followed by a blank.
bool starts_with_word(const char* p, std::string_view word) {
  for (std::size_t i = 0; i < word.size(); ++i)
    if (p[i] != word[i]) return false;  // stops at the line's '\n' at the latest
  return detail::is_blank(p[word.size()]);
}

/// The sources of the .ss text; throws parse_failure.
std::vector<vertex> parse_sources(const detail::text_buffer& text, std::int64_t num_vertices) {
  const detail::field_scanner scanner(text.data(), 1, static_cast<std::uint64_t>(num_vertices), false);
  const char* const end = text.data() + text.size();
  std::vector<vertex> sources;
  const char* problem = nullptr;
  std::uint64_t declared = 0;
  for (const char* line = text.data(); line < end; line = detail::next_line(line)) {
    const char* p = detail::skip_blanks(line);
    if (*p == '\n' || *p == 'c') continue;
    if (*p == 'p') {
      if (problem != nullptr) scanner.fail(p, "a second problem line");
      const char* field = detail::skip_blanks(p + 1);
      for (const std::string_view word : {"aux", "sp", "ss"}) {
        if (!starts_with_word(field, word)) scanner.fail_line(p, problem_layout);
        field = detail::skip_blanks(field + word.size());
      }
      scanner.end_of_line(scanner.count_field(field, declared, problem_layout), problem_layout);
      problem = p;
      continue;
    }
    if (*p != 's' || !detail::is_blank(p[1])) scanner.fail_line(p, source_layout);
    if (problem == nullptr) scanner.fail(p, "source before the problem line 'p aux sp ss K'");
    if (sources.size() == declared)
      scanner.fail(p, "more sources than the " + std::to_string(declared) + " the problem line declares");
    vertex source = 0;
    scanner.end_of_line(scanner.vertex_id(scanner.next_field(p + 1, source_layout), source), source_layout);
    sources.push_back(source);
  }
  if (problem == nullptr) scanner.fail(text.size() > 0 ? end - 1 : end, "no problem line 'p aux sp ss K'");
  if (declared == 0) scanner.fail(problem, "no sources: the problem line declares 0");
  if (sources.size() != declared)
    scanner.fail(problem, "the problem line declares " + std::to_string(declared) + " sources but the file has " +
                              std::to_string(sources.size()));
  return sources;
}

}  // namespace

vertex source_from_user(std::int64_t id, int index_base, std::int64_t num_vertices) {
  if (num_vertices <= 0) throw apps::usage_error("source " + std::to_string(id) + ": the graph has no vertices");
  if (id < index_base || id - index_base >= num_vertices)
    throw apps::usage_error("source " + std::to_string(id) + " is out of range: vertices are numbered " +
                            std::to_string(index_base) + ".." + std::to_string(num_vertices - 1 + index_base));
  return static_cast<vertex>(id - index_base);
}

std::vector<vertex> read_dimacs_sources(const std::string& path, std::int64_t num_vertices) {
  const detail::text_buffer text = detail::read_input(path);
  try {
    return parse_sources(text, num_vertices);
  } catch (const detail::parse_failure& failure) {
    detail::throw_failure({path}, detail::located(failure, detail::text_window{text, 1, true}));
  }
}

template <edge_weight W>
std::vector<vertex> random_sources(const csr_graph<W>& g, std::int64_t count, std::uint64_t seed) {
  std::vector<vertex> candidates;
  for (std::int64_t v = 0; v < g.num_vertices(); ++v)
    if (g.offsets[static_cast<std::size_t>(v + 1)] > g.offsets[static_cast<std::size_t>(v)])
      candidates.push_back(static_cast<vertex>(v));
  const std::size_t wanted = static_cast<std::size_t>(std::clamp<std::int64_t>(count, 0, static_cast<std::int64_t>(candidates.size())));
  std::mt19937_64 generator(seed);
  for (std::size_t i = 0; i < wanted; ++i) {
    // A plain modulo rather than std::uniform_int_distribution, whose algorithm differs between
    // standard libraries; its bias is below candidates / 2^64.
    const std::size_t pick = i + static_cast<std::size_t>(generator() % (candidates.size() - i));
    std::swap(candidates[i], candidates[pick]);
  }
  candidates.resize(wanted);
  return candidates;
}

template std::vector<vertex> random_sources(const csr_graph<std::uint32_t>&, std::int64_t, std::uint64_t);
template std::vector<vertex> random_sources(const csr_graph<float>&, std::int64_t, std::uint64_t);

}  // namespace bkt::sssp
