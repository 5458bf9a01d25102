// Cache files: one header, then the arrays, read in 1 MiB pieces on several threads; each piece
// is hashed and checked against the graph's invariants as it arrives, while it is in the core's
// cache, so that checking the cache costs next to nothing over reading it.
#include "io/graph_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <type_traits>
#include <vector>

#include "bkt_apps/app_error.hpp"
#include "bkt_apps/output_file.hpp"
#include "io/content_hash.hpp"
#include "io/huge_pages.hpp"
#include "bkt_apps/parallel_for.hpp"

namespace bkt::sssp::detail {
namespace {

constexpr char cache_magic[8] = {'b', 'k', 't', '-', 'c', 's', 'r', '\n'};
constexpr std::uint32_t cache_version = 2;  // 2: the input's content hash joined the key
constexpr std::uint32_t byte_order_mark = 0x01020304;
constexpr std::int64_t max_vertices = 0xffffffffLL;        // vertex ids are 32-bit
constexpr std::int64_t max_edges = std::int64_t{1} << 58;  // keeps every size computation in range

struct cache_header {
  char magic[8];
  std::uint32_t version;
  std::uint32_t weights_are_float;
  std::int64_t input_bytes;
  std::int64_t input_mtime_ns;
  std::uint64_t input_hash;
  std::uint64_t options_hash;
  std::int32_t index_base;
  std::uint32_t symmetric;
  std::uint32_t format;
  std::uint32_t byte_order;
  std::int64_t num_vertices;
  std::int64_t num_edges;
  std::uint64_t arrays_check;  // hash of offsets, targets and weights
  std::uint64_t check;         // hash of every field above: a damaged header is noticed
};
static_assert(sizeof(cache_header) == 96 && std::is_trivially_copyable_v<cache_header>);

std::uint64_t header_check(const cache_header& header) { return hash_bytes(&header, offsetof(cache_header, check)); }

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

/// Checks one piece of an array as it lands; true when every element in it is valid.
using piece_check = std::function<bool(const char* piece, std::int64_t bytes)>;

/// Reads `bytes` at `offset` into `data` piece by piece on `threads` threads (copying out of the
/// page cache goes faster on several cores), hashing and checking each piece as it lands. Returns
/// the array's hash continued from `hash`, or nullopt on an error or short read; `valid` turns
/// false when a piece fails `check`.
std::optional<std::uint64_t> read_and_hash(int fd, void* data, std::int64_t bytes, std::int64_t offset, int threads,
                                           std::uint64_t hash, const piece_check& check, std::atomic<bool>& valid) {
  std::vector<std::uint64_t> piece_hashes(static_cast<std::size_t>(count_hash_pieces(bytes)));
  std::atomic<bool> ok{true};
  apps::parallel_for(count_hash_pieces(bytes), 1, threads, [&](std::int64_t piece, std::int64_t) {
    char* const start = static_cast<char*>(data) + piece * hash_piece_bytes;
    const std::int64_t size = std::min(hash_piece_bytes, bytes - piece * hash_piece_bytes);
    for (std::int64_t done = 0; done < size && ok;) {
      const ssize_t got = ::pread(fd, start + done, static_cast<std::size_t>(size - done),
                                  static_cast<off_t>(offset + piece * hash_piece_bytes + done));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) ok = false;
      else done += got;
    }
    if (!ok) return;
    piece_hashes[static_cast<std::size_t>(piece)] = hash_piece(start, size);
    if (!check(start, size)) valid = false;
  });
  if (!ok) return std::nullopt;
  return fold_piece_hashes(piece_hashes, hash);
}

template <class T>
const T* elements(const char* piece) {
  return reinterpret_cast<const T*>(piece);  // pieces start at multiples of 1 MiB of an aligned array
}

/// A float weight the tool could have stored: finite, sign bit clear (the parser makes -0 +0).
bool valid_weight(float weight) { return std::isfinite(weight) && !std::signbit(weight); }

/// The first broken invariant of arrays that failed a piece check, in words (only on failure).
template <class Weight>
std::string first_violation(const csr_graph<Weight>& graph) {
  const std::int64_t n = graph.num_vertices(), m = graph.num_edges();
  if (graph.offsets.front() != 0) return "offsets[0] is " + std::to_string(graph.offsets.front()) + ", not 0";
  for (std::int64_t v = 0; v < n; ++v) {
    const std::int64_t from = graph.offsets[static_cast<std::size_t>(v)], to = graph.offsets[static_cast<std::size_t>(v) + 1];
    if (to < from)
      return "offsets[" + std::to_string(v + 1) + "] = " + std::to_string(to) + " is below offsets[" + std::to_string(v) +
             "] = " + std::to_string(from);
    if (to > m) return "offsets[" + std::to_string(v + 1) + "] = " + std::to_string(to) + " is past the " + std::to_string(m) + " edges";
  }
  if (graph.offsets.back() != m)
    return "offsets[" + std::to_string(n) + "] = " + std::to_string(graph.offsets.back()) + ", not the edge count " + std::to_string(m);
  for (std::int64_t e = 0; e < m; ++e)
    if (graph.targets[static_cast<std::size_t>(e)] >= n)
      return "edge " + std::to_string(e) + " goes to vertex " + std::to_string(graph.targets[static_cast<std::size_t>(e)]) +
             ", not below the " + std::to_string(n) + " vertices";
  if constexpr (std::is_same_v<Weight, float>)
    for (std::int64_t e = 0; e < m; ++e)
      if (!valid_weight(graph.weights[static_cast<std::size_t>(e)]))
        return "edge " + std::to_string(e) + " has weight " + std::to_string(graph.weights[static_cast<std::size_t>(e)]) +
               ": weights must be finite and non-negative";
  return "an array breaks an invariant";
}

template <class Weight>
std::optional<any_graph> read_arrays(int fd, const cache_header_info& header, int threads, std::string& reason) {
  csr_graph<Weight> graph;
  const std::int64_t n = header.num_vertices, m = header.num_edges;
  graph.offsets.clear();
  resize_with_huge_pages(graph.offsets, static_cast<std::size_t>(n + 1));
  resize_with_huge_pages(graph.targets, static_cast<std::size_t>(m));
  resize_with_huge_pages(graph.weights, static_cast<std::size_t>(m));
  std::atomic<bool> valid{true};
  const piece_check offsets_in_order = [m](const char* piece, std::int64_t bytes) {
    const auto* offset = elements<std::int64_t>(piece);
    const std::int64_t count = bytes / 8;
    bool ok = offset[0] >= 0 && offset[count - 1] <= m;
    for (std::int64_t i = 1; i < count; ++i) ok &= offset[i - 1] <= offset[i];
    return ok;
  };
  const piece_check targets_below_n = [n](const char* piece, std::int64_t bytes) {
    const auto* target = elements<vertex>(piece);
    bool ok = true;
    for (std::int64_t i = 0; i < bytes / 4; ++i) ok &= target[i] < n;
    return ok;
  };
  const piece_check weights_valid = [](const char* piece, std::int64_t bytes) {
    if constexpr (std::is_same_v<Weight, float>) {
      const auto* weight = elements<float>(piece);
      bool ok = true;
      for (std::int64_t i = 0; i < bytes / 4; ++i) ok &= valid_weight(weight[i]);
      return ok;
    }
    (void)piece, (void)bytes;
    return true;
  };
  std::int64_t at = sizeof(cache_header);
  std::optional<std::uint64_t> hash =
      read_and_hash(fd, graph.offsets.data(), (n + 1) * 8, at, threads, 0, offsets_in_order, valid);
  at += (n + 1) * 8;
  if (hash) hash = read_and_hash(fd, graph.targets.data(), m * 4, at, threads, *hash, targets_below_n, valid);
  at += m * 4;
  if (hash) hash = read_and_hash(fd, graph.weights.data(), m * 4, at, threads, *hash, weights_valid, valid);
  if (!hash) {
    reason = "cannot be read whole";
    return std::nullopt;
  }
  if (*hash != header.arrays_check) {
    reason = "its arrays are damaged (their hash differs)";
    return std::nullopt;
  }
  // Pieces checked order within themselves; the ends and the pieces' borders are checked here.
  constexpr std::int64_t offsets_per_piece = hash_piece_bytes / 8;
  bool ends_ok = graph.offsets.front() == 0 && graph.offsets.back() == m;
  for (std::int64_t border = offsets_per_piece; border <= n; border += offsets_per_piece)
    ends_ok &= graph.offsets[static_cast<std::size_t>(border - 1)] <= graph.offsets[static_cast<std::size_t>(border)];
  if (!valid || !ends_ok) {
    reason = first_violation(graph);
    return std::nullopt;
  }
  return any_graph(std::move(graph));
}

}  // namespace

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

std::int64_t cache_file_bytes(std::int64_t num_vertices, std::int64_t num_edges) {
  return static_cast<std::int64_t>(sizeof(cache_header)) + (num_vertices + 1) * 8 + num_edges * 8;
}

std::optional<cache_header_info> read_cache_header(const std::string& path, std::string& reason) {
  const read_only_file file(path);
  if (file.get() < 0) {
    reason = errno == ENOENT ? "there is none" : std::string("cannot open it: ") + std::strerror(errno);
    return std::nullopt;
  }
  struct stat info {};
  cache_header header{};
  if (::fstat(file.get(), &info) != 0 || info.st_size < static_cast<off_t>(sizeof(header)) ||
      ::pread(file.get(), &header, sizeof(header), 0) != static_cast<ssize_t>(sizeof(header))) {
    reason = "it is shorter than its header";
    return std::nullopt;
  }
  if (std::memcmp(header.magic, cache_magic, sizeof(cache_magic)) != 0 || header.byte_order != byte_order_mark) {
    reason = "it is not a bkt-sssp cache of this machine's byte order";
    return std::nullopt;
  }
  if (header.version != cache_version) {
    reason = "it has format version " + std::to_string(header.version) + ", not " + std::to_string(cache_version);
    return std::nullopt;
  }
  if (header.check != header_check(header)) {
    reason = "its header is damaged (its hash differs)";
    return std::nullopt;
  }
  // The header's hash only shows it is intact; whoever wrote it may still have been wrong.
  const bool known_format = header.format == static_cast<std::uint32_t>(graph_format::dimacs) ||
                            header.format == static_cast<std::uint32_t>(graph_format::matrix_market) ||
                            header.format == static_cast<std::uint32_t>(graph_format::edge_list);
  const int expected_base = header.format == static_cast<std::uint32_t>(graph_format::edge_list) ? 0 : 1;
  if (header.weights_are_float > 1 || header.symmetric > 1 || !known_format || header.index_base != expected_base) {
    reason = "its header fields are out of range (weights " + std::to_string(header.weights_are_float) + ", symmetric " +
             std::to_string(header.symmetric) + ", format " + std::to_string(header.format) + ", index base " +
             std::to_string(header.index_base) + ")";
    return std::nullopt;
  }
  if (header.num_vertices < 0 || header.num_vertices > max_vertices || header.num_edges < 0 ||
      header.num_edges > max_edges) {
    reason = "its header claims " + std::to_string(header.num_vertices) + " vertices and " +
             std::to_string(header.num_edges) + " edges";
    return std::nullopt;
  }
  const std::int64_t expected_bytes = cache_file_bytes(header.num_vertices, header.num_edges);
  if (info.st_size != static_cast<off_t>(expected_bytes)) {
    reason = "it holds " + std::to_string(info.st_size) + " bytes where its header implies " + std::to_string(expected_bytes);
    return std::nullopt;
  }
  cache_header_info result;
  result.key.input.bytes = header.input_bytes;
  result.key.input.mtime_ns = header.input_mtime_ns;
  result.key.content_hash = header.input_hash;
  result.key.options_hash = header.options_hash;
  result.num_vertices = header.num_vertices;
  result.num_edges = header.num_edges;
  result.weights_are_float = header.weights_are_float != 0;
  result.format = static_cast<graph_format>(header.format);
  result.index_base = header.index_base;
  result.symmetric = header.symmetric != 0;
  result.arrays_check = header.arrays_check;
  return result;
}

std::optional<cached_graph> read_cache_arrays(const std::string& path, const cache_header_info& header, int threads,
                                              std::string& reason) {
  const read_only_file file(path);
  if (file.get() < 0) {
    reason = std::string("cannot open it: ") + std::strerror(errno);
    return std::nullopt;
  }
  std::optional<any_graph> graph = header.weights_are_float ? read_arrays<float>(file.get(), header, threads, reason)
                                                            : read_arrays<std::uint32_t>(file.get(), header, threads, reason);
  if (!graph) return std::nullopt;
  return cached_graph{std::move(*graph), header.format, header.index_base, header.symmetric};
}

template <edge_weight Weight>
void write_cache(const std::string& path, const cache_key& key, const csr_graph<Weight>& graph, graph_format format,
                 int index_base, bool symmetric, int threads) {
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  std::error_code error;
  if (!folder.empty()) std::filesystem::create_directories(folder, error);
  if (error) throw apps::app_error(folder.string() + ": cannot create the cache folder: " + error.message());
  cache_header header{};
  std::memcpy(header.magic, cache_magic, sizeof(cache_magic));
  header.version = cache_version;
  header.weights_are_float = std::is_same_v<Weight, float> ? 1 : 0;
  header.input_bytes = key.input.bytes;
  header.input_mtime_ns = key.input.mtime_ns;
  header.input_hash = key.content_hash;
  header.options_hash = key.options_hash;
  header.index_base = index_base;
  header.symmetric = symmetric ? 1 : 0;
  header.format = static_cast<std::uint32_t>(format);
  header.byte_order = byte_order_mark;
  header.num_vertices = graph.num_vertices();
  header.num_edges = graph.num_edges();
  std::uint64_t hash = hash_memory(graph.offsets.data(), static_cast<std::int64_t>(graph.offsets.size() * 8), threads);
  hash = hash_memory(graph.targets.data(), static_cast<std::int64_t>(graph.targets.size() * 4), threads, hash);
  header.arrays_check = hash_memory(graph.weights.data(), static_cast<std::int64_t>(graph.weights.size() * 4), threads, hash);
  header.check = header_check(header);
  apps::output_file out(path);
  out.write(&header, sizeof(header));
  out.write(graph.offsets.data(), graph.offsets.size() * sizeof(std::int64_t));
  out.write(graph.targets.data(), graph.targets.size() * sizeof(vertex));
  out.write(graph.weights.data(), graph.weights.size() * sizeof(Weight));
  out.commit();
}

template void write_cache(const std::string&, const cache_key&, const csr_graph<std::uint32_t>&, graph_format, int, bool,
                          int);
template void write_cache(const std::string&, const cache_key&, const csr_graph<float>&, graph_format, int, bool, int);

void write_cache(const std::string& path, const cache_key& key, const cached_graph& cached, int threads) {
  std::visit([&](const auto& graph) { write_cache(path, key, graph, cached.format, cached.index_base, cached.symmetric, threads); },
             cached.graph);
}

}  // namespace bkt::sssp::detail
