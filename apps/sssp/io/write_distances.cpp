// write_distances: text formatted with to_chars in blocks on several threads and written in
// order; .npy through the shared array writer; both into files of the run's output set.
#include "io/write_distances.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "bkt_apps/numeric_io.hpp"
#include "bkt_apps/output_file.hpp"
#include "bkt_apps/parallel_for.hpp"

namespace bkt::sssp {
namespace {

constexpr std::int64_t block_vertices = std::int64_t{1} << 16;

template <class D>
bool reached(D distance) {
  return distance != unreachable<D>();
}

/// The text lines of vertices [first, last) appended to `text`.
template <class D>
void format_block(std::string& text, std::span<const D> distances, std::span<const std::int64_t> parents, vertex source,
                  int index_base, std::int64_t first, std::int64_t last) {
  // Longest line: two 20-digit numbers, a 24-character double, spaces and a newline.
  constexpr std::size_t max_line = 80;
  text.resize(static_cast<std::size_t>(last - first) * max_line);
  char* out = text.data();
  for (std::int64_t v = first; v < last; ++v) {
    out = std::to_chars(out, out + max_line, v + index_base).ptr;
    *out++ = ' ';
    const D distance = distances[static_cast<std::size_t>(v)];
    if (reached(distance)) {
      out = std::to_chars(out, out + max_line, distance).ptr;
    } else {
      out = std::copy_n("inf", 3, out);
    }
    if (!parents.empty()) {
      *out++ = ' ';
      const std::int64_t parent = parents[static_cast<std::size_t>(v)];
      if (parent < 0 || v == source || !reached(distance)) *out++ = '-';
      else out = std::to_chars(out, out + max_line, parent + index_base).ptr;
    }
    *out++ = '\n';
  }
  text.resize(static_cast<std::size_t>(out - text.data()));
}

template <class D>
void write_text(apps::output_file& out, std::span<const D> distances, std::span<const std::int64_t> parents,
                vertex source, int index_base) {
  out.write("# source " + std::to_string(std::int64_t{source} + index_base) + "\n");
  const auto n = static_cast<std::int64_t>(distances.size());
  const int threads = apps::resolve_threads(0);
  // A group of blocks is formatted at once, then written in order: memory stays bounded.
  const std::int64_t group_blocks = std::int64_t{threads} * 4;
  std::vector<std::string> blocks(static_cast<std::size_t>(group_blocks));
  for (std::int64_t group_first = 0; group_first < n; group_first += group_blocks * block_vertices) {
    const std::int64_t count = std::min(group_blocks, (n - group_first + block_vertices - 1) / block_vertices);
    apps::parallel_for(count, 1, threads, [&](std::int64_t b, std::int64_t) {
      const std::int64_t first = group_first + b * block_vertices;
      format_block(blocks[static_cast<std::size_t>(b)], distances, parents, source, index_base, first,
                   std::min(n, first + block_vertices));
    });
    for (std::int64_t b = 0; b < count; ++b) out.write(blocks[static_cast<std::size_t>(b)]);
  }
  out.finish();
}

template <class D>
void write_npy(const distance_files& files, std::span<const D> distances, std::span<const std::int64_t> parents,
               vertex source) {
  const auto n = static_cast<std::int64_t>(distances.size());
  apps::array_writer distance_writer(*files.distances, apps::byte_order::little, apps::file_format::npy,
                                     apps::dtype_of<D>(), n);
  distance_writer.write(distances);
  if (!parents.empty()) {
    if (files.parents == nullptr) throw std::invalid_argument("write_distances: parents given, but no parents file");
    apps::array_writer parent_writer(*files.parents, apps::byte_order::little, apps::file_format::npy,
                                     apps::dtype::i64, n);
    std::vector<std::int64_t> block;
    for (std::int64_t first = 0; first < n; first += block_vertices) {
      const std::int64_t last = std::min(n, first + block_vertices);
      block.clear();
      for (std::int64_t v = first; v < last; ++v) {
        const std::int64_t parent = parents[static_cast<std::size_t>(v)];
        const bool none = parent < 0 || v == source || !reached(distances[static_cast<std::size_t>(v)]);
        block.push_back(none ? -1 : parent);
      }
      parent_writer.write(std::span<const std::int64_t>(block));
    }
    parent_writer.finish();
  }
  distance_writer.finish();
}

bool is_npy_path(const std::string& path) { return path.size() > 4 && path.ends_with(".npy"); }

}  // namespace

std::string parents_npy_path(const std::string& distances_path) {
  const std::string stem = is_npy_path(distances_path) ? distances_path.substr(0, distances_path.size() - 4) : distances_path;
  return stem + "-parents.npy";
}

distance_files add_distance_files(apps::output_set& outputs, const std::string& path, bool with_parents) {
  distance_files files;
  files.path = path;
  files.npy = is_npy_path(path);
  files.distances = &outputs.add(path);
  if (files.npy && with_parents) files.parents = &outputs.add(parents_npy_path(path));
  return files;
}

template <class D>
void write_distances(const distance_files& files, std::span<const D> distances, std::span<const std::int64_t> parents,
                     vertex source, int index_base) {
  if (!parents.empty() && parents.size() != distances.size())
    throw std::invalid_argument("write_distances: parents must be empty or one per vertex");
  if (files.npy) write_npy(files, distances, parents, source);
  else write_text(*files.distances, distances, parents, source, index_base);
}

template <class D>
void write_distances(const std::string& path, std::span<const D> distances, std::span<const std::int64_t> parents,
                     vertex source, int index_base) {
  apps::output_set outputs;
  write_distances(add_distance_files(outputs, path, !parents.empty()), distances, parents, source, index_base);
  outputs.commit_all();
}

template void write_distances(const distance_files&, std::span<const std::uint64_t>, std::span<const std::int64_t>,
                              vertex, int);
template void write_distances(const distance_files&, std::span<const double>, std::span<const std::int64_t>, vertex,
                              int);
template void write_distances(const std::string&, std::span<const std::uint64_t>, std::span<const std::int64_t>, vertex,
                              int);
template void write_distances(const std::string&, std::span<const double>, std::span<const std::int64_t>, vertex, int);

}  // namespace bkt::sssp
