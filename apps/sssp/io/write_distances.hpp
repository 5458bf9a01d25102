// Writing the distances (and shortest-path parents) of one run: text, or NumPy .npy.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "graph.hpp"

namespace bkt::sssp {

/// Writes `distances` (D: std::uint64_t or double; unreachable<D>() where the source does not
/// reach) to `path`, whole or not at all. The extension decides: ".npy", else text; "-" is
/// standard output (text).
/// Text: first "# source S", then one line per vertex "VERTEX DISTANCE", plus " PARENT" when
/// parents are given; vertices and parents in the file's numbering (+ index_base), "inf" for
/// unreachable, "-" as the parent of the source and of unreachable vertices; doubles in the
/// shortest form that reads back exactly.
/// .npy: a 1-D array of uint64 (unreachable = 2^64-1) or float64 (inf), little-endian; parents
/// (if any) go to PATH with ".npy" replaced by "-parents.npy" as int64 0-based array indices
/// (the internal ids, so that parents[v] indexes the arrays), -1 for the source and unreachable.
/// `parents` is empty or holds num_vertices internal ids (negative: none).
template <class D>
void write_distances(const std::string& path, std::span<const D> distances, std::span<const std::int64_t> parents,
                     vertex source, int index_base);

/// The parents file that write_distances writes beside a .npy output: "x.npy" -> "x-parents.npy".
std::string parents_npy_path(const std::string& distances_path);

}  // namespace bkt::sssp
