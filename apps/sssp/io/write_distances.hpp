// Writing the distances (and shortest-path parents) of one run: text, or NumPy .npy.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "bkt_apps/output_set.hpp"
#include "graph.hpp"

namespace bkt::sssp {

/// The outputs one source's distances go to, made before the run by add_distance_files.
struct distance_files {
  std::string path;                          // as the user's -o gave it, {source} replaced
  bool npy = false;                          // ".npy", else text
  apps::output_file* distances = nullptr;
  apps::output_file* parents = nullptr;      // .npy with parents only: the -parents.npy file
  bool written = false;                      // set by the caller once written
};

/// Adds the files for `path` to the run's `outputs` (creating their temporaries now): the
/// distances, and with `with_parents` and a .npy path the parents file beside it.
distance_files add_distance_files(apps::output_set& outputs, const std::string& path, bool with_parents);

/// Writes `distances` (D: std::uint64_t or double; unreachable<D>() where the source does not
/// reach) into `files` and finishes them; the set's commit_all() shows them. The extension
/// decides: ".npy", else text; "-" is standard output (text).
/// Text: first "# source S", then one line per vertex "VERTEX DISTANCE", plus " PARENT" when
/// parents are given; vertices and parents in the file's numbering (+ index_base), "inf" for
/// unreachable, "-" as the parent of the source and of unreachable vertices; doubles in the
/// shortest form that reads back exactly.
/// .npy: a 1-D array of uint64 (unreachable = 2^64-1) or float64 (inf), little-endian; parents
/// (if any) go to PATH with ".npy" replaced by "-parents.npy" as int64 0-based array indices
/// (the internal ids, so that parents[v] indexes the arrays), -1 for the source and unreachable.
/// `parents` is empty or holds num_vertices internal ids (negative: none).
template <class D>
void write_distances(const distance_files& files, std::span<const D> distances, std::span<const std::int64_t> parents,
                     vertex source, int index_base);

/// The same to `path` alone, shown at once: whole or not at all.
template <class D>
void write_distances(const std::string& path, std::span<const D> distances, std::span<const std::int64_t> parents,
                     vertex source, int index_base);

/// The parents file that write_distances writes beside a .npy output: "x.npy" -> "x-parents.npy".
std::string parents_npy_path(const std::string& distances_path);

}  // namespace bkt::sssp
