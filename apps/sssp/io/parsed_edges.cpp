// The parse driver: chunks at line boundaries, parallel parsing, failures turned into FILE:LINE.
// Line numbers are only counted when something failed, so the fast path never counts newlines.
#include "io/parsed_edges.hpp"

#include <algorithm>
#include <cstring>

#include "bkt_apps/app_error.hpp"
#include "io/huge_pages.hpp"
#include "parallel_for.hpp"

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

void parse_chunks(std::vector<edge_chunk>& chunks, std::string_view text, const parse_settings& settings,
                  const std::function<void(edge_chunk&)>& parse) {
  parallel_for(static_cast<std::int64_t>(chunks.size()), 1, settings.threads, [&](std::int64_t index, std::int64_t) {
    edge_chunk& chunk = chunks[static_cast<std::size_t>(index)];
    try {
      parse(chunk);
    } catch (parse_failure& failure) {
      chunk.failure = std::move(failure);
    }
  });
  for (const edge_chunk& chunk : chunks)
    if (chunk.failure) throw_failure(settings, text, *chunk.failure);
}

std::int64_t line_number(std::string_view text, std::int64_t offset) {
  offset = std::clamp<std::int64_t>(offset, 0, static_cast<std::int64_t>(text.size()));
  return std::count(text.data(), text.data() + offset, '\n') + 1;
}

void throw_failure(const parse_settings& settings, std::string_view text, const parse_failure& failure) {
  throw apps::app_error(settings.name + ":" + std::to_string(line_number(text, failure.offset)) + ": " +
                        failure.message);
}

void check_edge_count(const std::vector<edge_chunk>& chunks, std::string_view text, const parse_settings& settings,
                      std::int64_t declared, std::int64_t header_offset, const char* what,
                      const std::function<bool(const char* line)>& data_line) {
  std::int64_t seen = 0;
  for (const edge_chunk& chunk : chunks) {
    if (seen + chunk.num_edges() > declared) {
      // Find the first line past the declared count by walking this chunk's lines again.
      std::int64_t wanted = declared - seen;
      for (const char* line = text.data() + chunk.begin; line < text.data() + chunk.end; line = next_line(line))
        if (data_line(line) && wanted-- == 0)
          throw_failure(settings, text,
                        {line - text.data(), "more " + std::string(what) + " than the " + std::to_string(declared) +
                                                 " the header declares"});
    }
    seen += chunk.num_edges();
  }
  if (seen < declared)
    throw_failure(settings, text,
                  {header_offset, "the header declares " + std::to_string(declared) + " " + what + " but the file has " +
                                      std::to_string(seen)});
}

}  // namespace bkt::sssp::detail
