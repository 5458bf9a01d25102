#include "harness.hpp"

#include <CLI/CLI.hpp>
#include <cuda/version>

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "bkt/device_buffer.hpp"
#include "bkt/error.hpp"
#include "bkt/gpu.hpp"

namespace bkt::bench {

std::string toolkit_cccl_version() {
  return std::to_string(CCCL_MAJOR_VERSION) + "." + std::to_string(CCCL_MINOR_VERSION) + "." +
         std::to_string(CCCL_PATCH_VERSION);
}

timing time_it(const std::function<void(cudaStream_t)>& work, cudaStream_t stream, int repeats, int warmup) {
  for (int i = 0; i < warmup; ++i) work(stream);
  cudaEvent_t start, stop;
  BKT_CUDA_CHECK(cudaEventCreate(&start));
  BKT_CUDA_CHECK(cudaEventCreate(&stop));
  std::vector<double> ms;
  for (int i = 0; i < repeats; ++i) {
    BKT_CUDA_CHECK(cudaEventRecord(start, stream));
    work(stream);
    BKT_CUDA_CHECK(cudaEventRecord(stop, stream));
    BKT_CUDA_CHECK(cudaEventSynchronize(stop));
    float elapsed = 0;
    BKT_CUDA_CHECK(cudaEventElapsedTime(&elapsed, start, stop));
    ms.push_back(elapsed);
  }
  BKT_CUDA_CHECK(cudaEventDestroy(start));
  BKT_CUDA_CHECK(cudaEventDestroy(stop));
  std::sort(ms.begin(), ms.end());
  return {ms[ms.size() / 2], ms.front(), ms.back()};
}

double copy_bandwidth(std::size_t bytes, cudaStream_t stream, int repeats) {
  device_buffer<std::byte> from(static_cast<std::int64_t>(bytes), stream), to(static_cast<std::int64_t>(bytes), stream);
  BKT_CUDA_CHECK(cudaMemsetAsync(from.data(), 1, bytes, stream));
  const timing t = time_it(
      [&](cudaStream_t s) { BKT_CUDA_CHECK(cudaMemcpyAsync(to.data(), from.data(), bytes, cudaMemcpyDeviceToDevice, s)); },
      stream, repeats);
  return 2.0 * static_cast<double>(bytes) / (t.median_ms * 1e-3);
}

namespace {
__global__ void read_all(const uint4* data, std::size_t count, unsigned* sink) {
  unsigned sum = 0;
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count; i += std::size_t{gridDim.x} * blockDim.x) {
    const uint4 v = data[i];
    sum += v.x ^ v.y ^ v.z ^ v.w;
  }
  if (sum == 0x9e3779b9u) *sink = sum;  // keeps the loads alive; practically never taken
}
}  // namespace

double read_bandwidth(std::size_t bytes, cudaStream_t stream, int repeats) {
  device_buffer<std::byte> data(static_cast<std::int64_t>(bytes), stream);
  device_buffer<unsigned> sink(1, stream);
  BKT_CUDA_CHECK(cudaMemsetAsync(data.data(), 1, bytes, stream));
  const device_info info = current_device_info();
  const timing t = time_it(
      [&](cudaStream_t s) {
        read_all<<<info.multiprocessors * 8, 256, 0, s>>>(reinterpret_cast<const uint4*>(data.data()), bytes / 16,
                                                          sink.data());
        BKT_CHECK_LAUNCH(s);
      },
      stream, repeats);
  return static_cast<double>(bytes) / (t.median_ms * 1e-3);
}

options parse_options(int argc, char** argv, const std::string& description) {
  options opts;
  CLI::App app(description);
  app.add_option("--repeats", opts.repeats, "timed runs per variant (median reported)")->check(CLI::Range(5, 10000));
  app.add_option("--log2-items", opts.log2_items, "input size as a power of two")->check(CLI::Range(10, 32));
  app.add_option("--json", opts.json_path, "also write the table as JSON to this file");
  app.add_option("--filter", opts.filter, "time only the rows whose case contains this text");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    std::exit(app.exit(e));
  }
  return opts;
}

report::report(std::string title, const options& opts, cudaStream_t stream) : title_(std::move(title)), opts_(opts) {
  const device_info info = current_device_info();
  device_ = info.name + " (sm_" + std::to_string(info.compute_major) + std::to_string(info.compute_minor) + ", " +
            std::to_string(info.multiprocessors) + " SMs)";
  bandwidth_ = copy_bandwidth(std::size_t{1} << 30, stream, opts.repeats);
  read_bandwidth_ = read_bandwidth(std::size_t{1} << 30, stream, opts.repeats);
}

void report::add(comparison c) { rows_.push_back(std::move(c)); }

void report::finish() const {
  const std::string cccl = toolkit_cccl_version();
  std::printf("\n%s   %s, median of %d, warm, CUDA events, CCCL %s (toolkit)\n", title_.c_str(), device_.c_str(),
              opts_.repeats, cccl.c_str());
  std::printf("copy bandwidth (this run): %.0f GB/s (read + write); the limit below uses it\n", bandwidth_ * 1e-9);
  std::printf("read-only bandwidth (this run, for context): %.0f GB/s\n", read_bandwidth_ * 1e-9);
  std::printf("%-40s %-30s %9s %10s %9s %9s %8s\n", "case", "impl", "ms", "Gelem/s", "vs peer", "of limit",
              "spread");
  nlohmann::json rows = nlohmann::json::array();
  for (const comparison& c : rows_) {
    const double limit_ms = c.limit_bytes / bandwidth_ * 1e3;
    auto line = [&](const std::string& impl, const timing& t, double ratio, const std::string& note) {
      std::printf("%-40s %-30s %9.3f %10.1f %8.2fx %8.1f%% %7.1f%%%s%s\n", c.name.c_str(), impl.c_str(), t.median_ms,
                  c.elements / (t.median_ms * 1e-3) * 1e-9, ratio, 100.0 * limit_ms / t.median_ms,
                  100.0 * t.spread(), t.spread() > 0.03 ? "  (noisy)" : "", note.c_str());
    };
    const std::string peer_cccl = c.peer_cccl.empty() ? cccl : c.peer_cccl;
    line("bucketeer", c.ours, c.peer.median_ms / c.ours.median_ms, "");
    line(c.peer_name, c.peer, 1.0, c.peer_cccl.empty() ? "" : "  [CCCL " + c.peer_cccl + "]");
    // The peer's slower calls, for the record: which way of calling it lost, and by how much.
    for (const auto& [name, t] : c.peer_calls)
      if (name != c.peer_name)
        std::printf("%-40s %-30s %9.3f   (slower call of the peer, not reported)\n", "", name.c_str(), t.median_ms);
    std::printf("%-40s %-30s %9.3f   bytes: %s\n", "", "limit", limit_ms, c.byte_model.c_str());
    nlohmann::json calls = nlohmann::json::array();
    for (const auto& [name, t] : c.peer_calls) calls.push_back({{"name", name}, {"ms", t.median_ms}, {"spread", t.spread()}});
    rows.push_back({{"case", c.name},
                    {"elements", c.elements},
                    {"limit_bytes", c.limit_bytes},
                    {"byte_model", c.byte_model},
                    {"limit_ms", limit_ms},
                    {"ours_ms", c.ours.median_ms},
                    {"ours_spread", c.ours.spread()},
                    {"peer", c.peer_name},
                    {"peer_ms", c.peer.median_ms},
                    {"peer_spread", c.peer.spread()},
                    {"peer_cccl_version", peer_cccl},
                    {"peer_calls", calls},
                    {"ours_elements_per_s", c.elements / (c.ours.median_ms * 1e-3)},
                    {"ratio_to_peer", c.peer.median_ms / c.ours.median_ms},
                    {"fraction_of_limit", limit_ms / c.ours.median_ms}});
  }
  if (!opts_.json_path.empty()) {
    const nlohmann::json doc = {{"benchmark", title_},   {"device", device_},
                                {"repeats", opts_.repeats}, {"cccl_version", cccl},
                                {"copy_bandwidth_bytes_per_s", bandwidth_},
                                {"read_bandwidth_bytes_per_s", read_bandwidth_},
                                {"rows", rows}};
    const std::string tmp = opts_.json_path + ".tmp";
    std::ofstream(tmp) << doc.dump(2) << '\n';
    std::rename(tmp.c_str(), opts_.json_path.c_str());
  }
}

void compare(report& rep, const options& opts, comparison row, const std::vector<peer_call>& peers,
             const std::function<void(cudaStream_t)>& ours, const std::function<void(comparison&)>& check,
             cudaStream_t stream) {
  if (peers.empty()) throw error("compare: no peer call for " + row.name, cudaSuccess, __FILE__, __LINE__);
  if (!opts.filter.empty() && row.name.find(opts.filter) == std::string::npos) return;
  row.ours = time_it(ours, stream, opts.repeats);
  std::size_t fastest = 0;
  for (std::size_t i = 0; i < peers.size(); ++i) {
    row.peer_calls.emplace_back(peers[i].name, time_it(peers[i].work, stream, opts.repeats));
    if (row.peer_calls[i].second.median_ms < row.peer_calls[fastest].second.median_ms) fastest = i;
  }
  row.peer_name = peers[fastest].name;
  row.peer = row.peer_calls[fastest].second;
  // The calls share their outputs: the reported one runs last, so that the check reads its output.
  if (fastest + 1 != peers.size()) peers[fastest].work(stream);
  if (peers[fastest].publish) peers[fastest].publish(stream);
  check(row);
  rep.add(std::move(row));
}

void compare(report& rep, const options& opts, comparison row, std::string peer_name,
             const std::function<void(cudaStream_t)>& ours, const std::function<void(cudaStream_t)>& peer,
             const std::function<void(const comparison&)>& check, cudaStream_t stream) {
  compare(rep, opts, std::move(row), {peer_call{std::move(peer_name), peer}}, ours,
          [&check](comparison& r) { check(r); }, stream);
}

int run_main(int argc, char** argv, const std::string& name, const std::string& description,
             const std::function<void(const options&, cudaStream_t)>& body) {
  const options opts = parse_options(argc, argv, description);
  if (!gpu_available()) {
    std::printf("%s: no usable GPU (%s); nothing to measure\n", name.c_str(), gpu_unavailable_reason().c_str());
    return 0;
  }
  try {
    cudaStream_t stream;
    BKT_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    body(opts, stream);
    BKT_CUDA_CHECK(cudaStreamDestroy(stream));
  } catch (const error& e) {
    std::fprintf(stderr, "%s: %s\n", name.c_str(), e.what());
    return 3;
  }
  return 0;
}

}  // namespace bkt::bench
