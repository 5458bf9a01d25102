// Fast 64-bit hashes of bytes: of a whole input file (the cache's proof that the input is the one
// it was built from) and of the cache's own arrays. Bytes are cut into pieces of a fixed size, each
// piece is hashed on its own (so pieces can be hashed on any thread, right after they are read,
// while they are still in cache), and the pieces' hashes are folded in order. The hash depends on
// the bytes alone, never on the thread count. It is no cryptographic hash: it catches edits and
// damage, not an adversary.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace bkt::sssp::detail {

/// The size of a hashed piece (the last one of an input may be shorter).
inline constexpr std::int64_t hash_piece_bytes = std::int64_t{1} << 20;

/// The number of pieces `bytes` bytes make.
constexpr std::int64_t count_hash_pieces(std::int64_t bytes) { return (bytes + hash_piece_bytes - 1) / hash_piece_bytes; }

/// 64-bit FNV-1a of `bytes`, continuing from `hash`: for short keys (paths, option fields).
std::uint64_t hash_bytes(const void* bytes, std::size_t size, std::uint64_t hash = 0xcbf29ce484222325ULL);

/// The hash of one piece: four independent multiply-rotate lanes, so that their multiplies overlap
/// (its speed: docs/tools/bkt-sssp.md).
std::uint64_t hash_piece(const void* data, std::int64_t bytes);

/// The pieces' hashes folded in order, continuing from `hash`.
std::uint64_t fold_piece_hashes(const std::vector<std::uint64_t>& piece_hashes, std::uint64_t hash = 0);

/// The hash of `bytes` bytes at `data` (pieces hashed on `threads` threads), continuing from `hash`.
std::uint64_t hash_memory(const void* data, std::int64_t bytes, int threads, std::uint64_t hash = 0);

/// The hash of the first `bytes` bytes of the open file `fd` (a regular file), read with pread in
/// pieces on `threads` threads into small buffers, so that no copy of the file is kept: what
/// hash_memory gives for the same bytes. nullopt when the file is shorter or a read fails.
std::optional<std::uint64_t> hash_file(int fd, std::int64_t bytes, int threads);

}  // namespace bkt::sssp::detail
