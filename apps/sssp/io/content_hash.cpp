// Piece hashes: the lanes' loop runs near memory speed, and pieces go to threads independently.
#include "io/content_hash.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cerrno>
#include <cstring>
#include <memory>

#include "io/random_weight.hpp"
#include "bkt_apps/parallel_for.hpp"

namespace bkt::sssp::detail {

std::uint64_t hash_bytes(const void* bytes, std::size_t size, std::uint64_t hash) {
  const auto* byte = static_cast<const unsigned char*>(bytes);
  for (std::size_t i = 0; i < size; ++i) hash = (hash ^ byte[i]) * 0x100000001b3ULL;
  return hash;
}

std::uint64_t hash_piece(const void* data, std::int64_t bytes) {
  const auto* byte = static_cast<const unsigned char*>(data);
  // Each step is a bijection of the lane's state for a given word, and injective in the word for
  // a given state, so any one changed word changes its lane; the lanes are folded in order.
  std::uint64_t lanes[4] = {1, 2, 3, 4};
  std::int64_t i = 0;
  for (; i + 32 <= bytes; i += 32)
    for (int lane = 0; lane < 4; ++lane) {
      std::uint64_t word;
      std::memcpy(&word, byte + i + 8 * lane, 8);
      lanes[lane] = std::rotl(lanes[lane] ^ word, 29) * 0x9e3779b97f4a7c15ULL;
    }
  std::uint64_t hash = hash_bytes(byte + i, static_cast<std::size_t>(bytes - i));
  for (const std::uint64_t lane : lanes) hash = mix64(hash ^ lane);
  return mix64(hash ^ static_cast<std::uint64_t>(bytes));  // the length too: a piece and its zero-padded twin differ
}

std::uint64_t fold_piece_hashes(const std::vector<std::uint64_t>& piece_hashes, std::uint64_t hash) {
  for (const std::uint64_t piece : piece_hashes) hash = mix64(hash ^ piece);
  return hash;
}

std::uint64_t hash_memory(const void* data, std::int64_t bytes, int threads, std::uint64_t hash) {
  std::vector<std::uint64_t> piece_hashes(static_cast<std::size_t>(count_hash_pieces(bytes)));
  apps::parallel_for(count_hash_pieces(bytes), 1, threads, [&](std::int64_t piece, std::int64_t) {
    piece_hashes[static_cast<std::size_t>(piece)] =
        hash_piece(static_cast<const char*>(data) + piece * hash_piece_bytes,
                   std::min(hash_piece_bytes, bytes - piece * hash_piece_bytes));
  });
  return fold_piece_hashes(piece_hashes, hash);
}

std::optional<std::uint64_t> hash_file(int fd, std::int64_t bytes, int threads) {
  const std::int64_t pieces = count_hash_pieces(bytes);
  std::vector<std::uint64_t> piece_hashes(static_cast<std::size_t>(pieces));
  std::atomic<bool> ok{true};
  // 16 pieces a task: one buffer serves them all, and stays in the core's cache between them.
  apps::parallel_for(pieces, 16, threads, [&](std::int64_t first, std::int64_t last) {
    const auto buffer = std::make_unique_for_overwrite<char[]>(static_cast<std::size_t>(hash_piece_bytes));
    for (std::int64_t piece = first; piece < last && ok; ++piece) {
      const std::int64_t size = std::min(hash_piece_bytes, bytes - piece * hash_piece_bytes);
      for (std::int64_t done = 0; done < size && ok;) {
        const ssize_t got = ::pread(fd, buffer.get() + done, static_cast<std::size_t>(size - done),
                                    static_cast<off_t>(piece * hash_piece_bytes + done));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) ok = false;
        else done += got;
      }
      if (ok) piece_hashes[static_cast<std::size_t>(piece)] = hash_piece(buffer.get(), size);
    }
  });
  if (!ok) return std::nullopt;
  return fold_piece_hashes(piece_hashes);
}

}  // namespace bkt::sssp::detail
