// Cache files: one header, then the arrays, read in 1 MiB pieces on several threads and hashed
// piece by piece as they arrive, so that checking the cache costs next to nothing over reading it.
#include "io/graph_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <bit>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <type_traits>
#include <vector>

#include "bkt_apps/app_error.hpp"
#include "bkt_apps/output_file.hpp"
#include "io/huge_pages.hpp"
#include "io/random_weight.hpp"
#include "parallel_for.hpp"

namespace bkt::sssp::detail {
namespace {

constexpr char cache_magic[8] = {'b', 'k', 't', '-', 'c', 's', 'r', '\n'};
constexpr std::uint32_t cache_version = 1;
constexpr std::uint32_t byte_order_mark = 0x01020304;

struct cache_header {
  char magic[8];
  std::uint32_t version;
  std::uint32_t weights_are_float;
  std::int64_t input_bytes;
  std::int64_t input_mtime_ns;
  std::uint64_t options_hash;
  std::int32_t index_base;
  std::uint32_t symmetric;
  std::uint32_t format;
  std::uint32_t byte_order;
  std::int64_t num_vertices;
  std::int64_t num_edges;
  std::uint64_t arrays_check;  // array_hash of offsets, targets and weights
  std::uint64_t check;         // hash of every field above: a damaged header is noticed
};
static_assert(sizeof(cache_header) == 88 && std::is_trivially_copyable_v<cache_header>);

std::uint64_t header_check(const cache_header& header) { return hash_bytes(&header, offsetof(cache_header, check)); }

/// Arrays are hashed in pieces of this size (a fixed size, so the hash does not depend on the
/// thread count); a piece is hashed right after it is read, while it is still in cache.
constexpr std::int64_t piece_bytes = std::int64_t{1} << 20;

/// A hash of one piece that runs near memory speed: four independent multiply-xor lanes. Each
/// step is a bijection of the lane state, so any one changed word changes the result.
std::uint64_t hash_piece(const void* data, std::int64_t bytes) {
  const auto* byte = static_cast<const unsigned char*>(data);
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
  return hash;
}

/// The pieces' hashes folded in order.
std::uint64_t fold(const std::vector<std::uint64_t>& piece_hashes, std::uint64_t hash) {
  for (const std::uint64_t piece : piece_hashes) hash = mix64(hash ^ piece);
  return hash;
}

std::int64_t count_pieces(std::int64_t bytes) { return (bytes + piece_bytes - 1) / piece_bytes; }

/// Hashes an array in memory, pieces on `threads` threads.
std::uint64_t array_hash(const void* data, std::int64_t bytes, int threads, std::uint64_t hash) {
  std::vector<std::uint64_t> piece_hashes(static_cast<std::size_t>(count_pieces(bytes)));
  parallel_for(count_pieces(bytes), 1, threads, [&](std::int64_t piece, std::int64_t) {
    piece_hashes[static_cast<std::size_t>(piece)] = hash_piece(static_cast<const char*>(data) + piece * piece_bytes,
                                                              std::min(piece_bytes, bytes - piece * piece_bytes));
  });
  return fold(piece_hashes, hash);
}

class read_only_file {
 public:
  explicit read_only_file(const std::string& path) : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {}
  read_only_file(const read_only_file&) = delete;
  read_only_file& operator=(const read_only_file&) = delete;
  ~read_only_file() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const noexcept { return fd_; }

 private:
  int fd_;
};

/// Reads `bytes` at `offset` into `data` piece by piece on `threads` threads (copying out of the
/// page cache goes faster on several cores), hashing each piece as it lands. Returns the array's
/// hash continued from `hash`, or nullopt on an error or short read.
std::optional<std::uint64_t> read_and_hash(int fd, void* data, std::int64_t bytes, std::int64_t offset, int threads,
                                           std::uint64_t hash) {
  std::vector<std::uint64_t> piece_hashes(static_cast<std::size_t>(count_pieces(bytes)));
  std::atomic<bool> ok{true};
  parallel_for(count_pieces(bytes), 1, threads, [&](std::int64_t piece, std::int64_t) {
    char* const start = static_cast<char*>(data) + piece * piece_bytes;
    const std::int64_t size = std::min(piece_bytes, bytes - piece * piece_bytes);
    for (std::int64_t done = 0; done < size && ok;) {
      const ssize_t got = ::pread(fd, start + done, static_cast<std::size_t>(size - done), offset + piece * piece_bytes + done);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) ok = false;
      else done += got;
    }
    if (ok) piece_hashes[static_cast<std::size_t>(piece)] = hash_piece(start, size);
  });
  if (!ok) return std::nullopt;
  return fold(piece_hashes, hash);
}

template <class Weight>
std::uint64_t arrays_hash(const csr_graph<Weight>& graph, int threads) {
  std::uint64_t hash = array_hash(graph.offsets.data(), static_cast<std::int64_t>(graph.offsets.size() * 8), threads, 0);
  hash = array_hash(graph.targets.data(), static_cast<std::int64_t>(graph.targets.size() * 4), threads, hash);
  return array_hash(graph.weights.data(), static_cast<std::int64_t>(graph.weights.size() * 4), threads, hash);
}

template <class Weight>
std::optional<any_graph> read_arrays(int fd, const cache_header& header, int threads) {
  csr_graph<Weight> graph;
  const auto n = header.num_vertices;
  const auto m = header.num_edges;
  graph.offsets.clear();
  resize_with_huge_pages(graph.offsets, static_cast<std::size_t>(n + 1));
  resize_with_huge_pages(graph.targets, static_cast<std::size_t>(m));
  resize_with_huge_pages(graph.weights, static_cast<std::size_t>(m));
  std::int64_t at = sizeof(cache_header);
  std::optional<std::uint64_t> hash = read_and_hash(fd, graph.offsets.data(), (n + 1) * 8, at, threads, 0);
  at += (n + 1) * 8;
  if (hash) hash = read_and_hash(fd, graph.targets.data(), m * 4, at, threads, *hash);
  at += m * 4;
  if (hash) hash = read_and_hash(fd, graph.weights.data(), m * 4, at, threads, *hash);
  // The hash catches damage; the ends of the offsets are checked too, for a cache written by a
  // different program that happens to share the format.
  if (!hash || *hash != header.arrays_check || graph.offsets.front() != 0 || graph.offsets.back() != m)
    return std::nullopt;
  return any_graph(std::move(graph));
}

}  // namespace

std::uint64_t hash_bytes(const void* bytes, std::size_t size, std::uint64_t hash) {
  const auto* byte = static_cast<const unsigned char*>(bytes);
  for (std::size_t i = 0; i < size; ++i) hash = (hash ^ byte[i]) * 0x100000001b3ULL;
  return hash;
}

std::string cache_path_for(const std::string& input_path, const std::string& cache_dir) {
  if (cache_dir.empty()) return input_path + ".bkt-csr";
  std::error_code error;
  std::filesystem::path absolute = std::filesystem::absolute(input_path, error);
  if (error) absolute = input_path;
  const std::string key = absolute.lexically_normal().string();
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(hash_bytes(key.data(), key.size())));
  return (std::filesystem::path(cache_dir) / (std::string(hex) + "-" + absolute.filename().string() + ".bkt-csr")).string();
}

std::optional<cached_graph> read_cache(const std::string& path, const cache_key& key, int threads) {
  const read_only_file file(path);
  if (file.get() < 0) return std::nullopt;
  struct stat info {};
  cache_header header{};
  if (::fstat(file.get(), &info) != 0 || info.st_size < static_cast<off_t>(sizeof(header)) ||
      ::pread(file.get(), &header, sizeof(header), 0) != static_cast<ssize_t>(sizeof(header)))
    return std::nullopt;
  const bool header_ok = std::memcmp(header.magic, cache_magic, sizeof(cache_magic)) == 0 &&
                         header.version == cache_version && header.byte_order == byte_order_mark &&
                         header.check == header_check(header) && header.input_bytes == key.input.bytes &&
                         header.input_mtime_ns == key.input.mtime_ns && header.options_hash == key.options_hash &&
                         header.weights_are_float <= 1 && header.symmetric <= 1 &&
                         header.format <= static_cast<std::uint32_t>(graph_format::edge_list) &&
                         header.num_vertices >= 0 && header.num_vertices <= 0xffffffffLL && header.num_edges >= 0;
  // Compare sizes in a form that cannot overflow for any header.
  if (!header_ok || header.num_edges > (std::int64_t{1} << 58) ||
      info.st_size != static_cast<off_t>(sizeof(header) + (header.num_vertices + 1) * 8 + header.num_edges * 8))
    return std::nullopt;
  std::optional<any_graph> graph = header.weights_are_float ? read_arrays<float>(file.get(), header, threads)
                                                            : read_arrays<std::uint32_t>(file.get(), header, threads);
  if (!graph) return std::nullopt;
  return cached_graph{std::move(*graph), static_cast<graph_format>(header.format), header.index_base,
                      header.symmetric != 0};
}

void write_cache(const std::string& path, const cache_key& key, const cached_graph& cached, int threads) {
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  std::error_code error;
  if (!folder.empty()) std::filesystem::create_directories(folder, error);
  if (error) throw apps::app_error(folder.string() + ": cannot create the cache folder: " + error.message());
  std::visit(
      [&]<class Weight>(const csr_graph<Weight>& graph) {
        cache_header header{};
        std::memcpy(header.magic, cache_magic, sizeof(cache_magic));
        header.version = cache_version;
        header.weights_are_float = std::is_same_v<Weight, float> ? 1 : 0;
        header.input_bytes = key.input.bytes;
        header.input_mtime_ns = key.input.mtime_ns;
        header.options_hash = key.options_hash;
        header.index_base = cached.index_base;
        header.symmetric = cached.symmetric ? 1 : 0;
        header.format = static_cast<std::uint32_t>(cached.format);
        header.byte_order = byte_order_mark;
        header.num_vertices = graph.num_vertices();
        header.num_edges = graph.num_edges();
        header.arrays_check = arrays_hash(graph, threads);
        header.check = header_check(header);
        apps::output_file out(path);
        out.write(&header, sizeof(header));
        out.write(graph.offsets.data(), graph.offsets.size() * sizeof(std::int64_t));
        out.write(graph.targets.data(), graph.targets.size() * sizeof(vertex));
        out.write(graph.weights.data(), graph.weights.size() * sizeof(Weight));
        out.commit();
      },
      cached.graph);
}

}  // namespace bkt::sssp::detail
