// The parse driver: chunks at line boundaries, parallel parsing, failures turned into FILE:LINE,
// and the checks that stop an input early (the declared count passed, the memory budget passed).
// Line numbers are only counted when something failed, so the fast path never counts newlines.
#include "io/parsed_edges.hpp"

#include <algorithm>
#include <cstring>

#include "bkt_apps/app_error.hpp"
#include "bkt_apps/memory_limit.hpp"
#include "io/huge_pages.hpp"
#include "io/memory_plan.hpp"
#include "bkt_apps/parallel_for.hpp"

namespace bkt::sssp::detail {

std::int64_t parsed_edges::num_edges() const {
  std::int64_t total = 0;
  for (const edge_chunk& chunk : chunks) total += chunk.num_edges();
  return total;
}

std::vector<edge_chunk> split_into_chunks(std::string_view text, std::int64_t begin, int threads) {
  const auto size = static_cast<std::int64_t>(text.size());
  constexpr std::int64_t min_chunk_bytes = 64 << 10;
  const std::int64_t wanted = std::max<std::int64_t>(1, std::int64_t{threads} * 4);
  const std::int64_t chunk_bytes = std::max(min_chunk_bytes, (size - begin + wanted - 1) / wanted);
  std::vector<edge_chunk> chunks;
  while (begin < size) {
    std::int64_t end = std::min(size, begin + chunk_bytes);
    if (end < size) {  // move the cut to just past the next newline
      const void* newline = std::memchr(text.data() + end - 1, '\n', static_cast<std::size_t>(size - end + 1));
      end = newline == nullptr ? size : static_cast<const char*>(newline) - text.data() + 1;
    }
    edge_chunk& chunk = chunks.emplace_back();
    chunk.begin = begin;
    chunk.end = end;
    begin = end;
  }
  return chunks;
}

void reserve_edges(edge_chunk& chunk, std::string_view text, bool keep_weights) {
  const std::int64_t bytes = chunk.end - chunk.begin;
  const std::int64_t sample = std::min<std::int64_t>(bytes, 16 << 10);
  const auto lines = std::count(text.data() + chunk.begin, text.data() + chunk.begin + sample, '\n');
  // 5% over the sample's rate, so that a slightly longer average line does not force a regrowth.
  const auto estimate = static_cast<std::size_t>((lines + 1) * bytes / std::max<std::int64_t>(sample, 1) * 21 / 20 + 16);
  chunk.sources.reserve(estimate);
  chunk.targets.reserve(estimate);
  if (keep_weights) chunk.weights.reserve(estimate);
  prefer_huge_pages(chunk.sources.data(), estimate * sizeof(vertex));
  prefer_huge_pages(chunk.targets.data(), estimate * sizeof(vertex));
  if (keep_weights) prefer_huge_pages(chunk.weights.data(), estimate * sizeof(std::uint32_t));
}

std::int64_t line_number(const text_window& window, std::int64_t offset) {
  offset = std::clamp<std::int64_t>(offset, 0, static_cast<std::int64_t>(window.text.size()));
  return window.first_line + std::count(window.text.data(), window.text.data() + offset, '\n');
}

parse_failure located(parse_failure failure, const text_window& window) {
  if (failure.line == 0) failure.line = line_number(window, failure.offset);
  return failure;
}

void throw_failure(const parse_settings& settings, const parse_failure& failure) {
  const std::string where = settings.name + ":" + std::to_string(failure.line);
  if (failure.needed_bytes > 0) apps::require_host_memory(settings.memory_budget, failure.needed_bytes, where, failure.message);
  throw apps::app_error(where + ": " + failure.message);
}

void window_parser::parse_window(const text_window& window) {
  std::int64_t body = 0;
  if (!header_) {
    try {
      header_ = read_header(window.text, window.last);
    } catch (const parse_failure& failure) {
      throw_failure(settings_, located(failure, window));
    }
    if (!header_) return;  // the window held comments only
    body = header_->body;
    header_line_ = line_number(window, header_->offset);
    if (header_->num_vertices && header_->num_edges) {
      // What the header declares is what the graph will take: refuse it now, before any edge.
      const graph_size size{*header_->num_vertices, *header_->num_edges, settings_.add_reverse || header_->symmetric,
                            settings_.keep_weights, static_cast<std::int64_t>(window.text.size())};
      apps::require_host_memory(settings_.memory_budget, graph_peak_bytes(size),
                                settings_.name + ":" + std::to_string(header_line_),
                                "a graph of " + std::to_string(*header_->num_vertices) + " vertices and " +
                                    std::to_string(*header_->num_edges) + " " + edge_name());
    }
  }
  std::vector<edge_chunk> chunks = split_into_chunks(window.text.view(), body, settings_.threads);
  apps::parallel_for(static_cast<std::int64_t>(chunks.size()), 1, settings_.threads, [&](std::int64_t index, std::int64_t) {
    edge_chunk& chunk = chunks[static_cast<std::size_t>(index)];
    try {
      parse_chunk(chunk, window.text);
    } catch (parse_failure& failure) {
      chunk.failure = std::move(failure);
    }
  });
  throw_first_failure(chunks, window);
  check_too_many(chunks, window);
  for (edge_chunk& chunk : chunks) {
    if (chunk.too_large) chunk.too_large = located(*chunk.too_large, window);  // the window goes; its lines are known now
    edges_so_far_ += chunk.num_edges();
    parsed_.chunks.push_back(std::move(chunk));
  }
  check_memory(window);
}

parsed_edges window_parser::finish() {
  if (header_ && header_->num_edges && edges_so_far_ < *header_->num_edges)
    throw_failure(settings_, {header_->offset,
                              "the header declares " + std::to_string(*header_->num_edges) + " " + edge_name() +
                                  " but the file has " + std::to_string(edges_so_far_),
                              0, header_line_});
  finish_edges(parsed_);
  parsed_.num_vertices = vertices_so_far();
  const graph_size size{parsed_.num_vertices, edges_so_far_, settings_.add_reverse || parsed_.symmetric,
                        settings_.keep_weights, 0};
  apps::require_host_memory(settings_.memory_budget, graph_peak_bytes(size), settings_.name,
                            "a graph of " + std::to_string(parsed_.num_vertices) + " vertices and " +
                                std::to_string(edges_so_far_) + " edges");
  return std::move(parsed_);
}

void window_parser::throw_first_failure(const std::vector<edge_chunk>& chunks, const text_window& window) const {
  for (const edge_chunk& chunk : chunks)
    if (chunk.failure) throw_failure(settings_, located(*chunk.failure, window));
}

void window_parser::check_too_many(const std::vector<edge_chunk>& chunks, const text_window& window) const {
  if (!header_ || !header_->num_edges) return;
  const std::int64_t declared = *header_->num_edges;
  std::int64_t seen = edges_so_far_;
  for (const edge_chunk& chunk : chunks) {
    if (seen + chunk.num_edges() > declared) {
      // Find the first line past the declared count by walking this chunk's lines again.
      std::int64_t wanted = declared - seen;
      const char* const base = window.text.data();
      for (const char* line = base + chunk.begin; line < base + chunk.end; line = next_line(line))
        if (is_edge_line(line) && wanted-- == 0)
          throw_failure(settings_, located({line - base, "more " + std::string(edge_name()) + " than the " +
                                                             std::to_string(declared) + " the header declares"},
                                           window));
    }
    seen += chunk.num_edges();
  }
}

void window_parser::check_memory(const text_window& window) const {
  if (window.last) return;  // finish() checks the whole graph
  const graph_size size{vertices_so_far(), edges_so_far_, settings_.add_reverse || (header_ && header_->symmetric),
                        settings_.keep_weights, static_cast<std::int64_t>(window.text.size())};
  const std::int64_t needed = graph_peak_bytes(size);
  if (needed <= settings_.memory_budget) return;
  const std::int64_t line = line_number(window, static_cast<std::int64_t>(window.text.size()) - 1);
  apps::require_host_memory(settings_.memory_budget, needed, settings_.name + ":" + std::to_string(line),
                            "a graph of " + std::to_string(size.vertices) + " vertices and " +
                                std::to_string(size.input_edges) + " " + edge_name() + " by this line");
}

}  // namespace bkt::sssp::detail
