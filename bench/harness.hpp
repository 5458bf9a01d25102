// One harness for every benchmark: CUDA-event timing (warm, median of many runs), the copy
// bandwidth of this GPU measured in the same process, and a table printed and written as JSON.
//
// Each row reports elements/s, the ratio to the peer (the best existing implementation, run on the
// same data in the same process), and the fraction of the byte limit: the bytes that must move
// (stated by each benchmark next to its code) over the measured device-to-device copy bandwidth.
#pragma once

#include <cuda_runtime_api.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace bkt::bench {

struct timing {
  double median_ms = 0;
  double min_ms = 0;
  double max_ms = 0;
  double spread() const { return median_ms > 0 ? (max_ms - min_ms) / median_ms : 0; }
};

/// Runs `work` `warmup` times, then times `repeats` runs one by one with CUDA events on `stream`.
timing time_it(const std::function<void(cudaStream_t)>& work, cudaStream_t stream, int repeats, int warmup = 3);

/// Bytes read plus bytes written per second by cudaMemcpyAsync device to device of `bytes`.
double copy_bandwidth(std::size_t bytes, cudaStream_t stream, int repeats);

/// Bytes read per second by a kernel that only reads `bytes` (16-byte loads) and sums them: the
/// read-only ceiling, printed beside the copy bandwidth for context.
double read_bandwidth(std::size_t bytes, cudaStream_t stream, int repeats);

struct options {
  int repeats = 25;
  int log2_items = 28;
  std::string json_path;
  std::string filter;  // only the rows whose case contains it (compare skips the others)
};
/// --repeats N, --log2-items K, --json FILE, --filter TEXT; exits on --help or a bad option.
options parse_options(int argc, char** argv, const std::string& description);

/// The CCCL version the benchmarks were compiled with (the toolkit's), "3.0.1".
std::string toolkit_cccl_version();

/// One way of calling the peer, to time beside the others: its name says which ("cub::SortKeys(i64)"),
/// `work` is what is timed, and `publish` (optional, untimed) moves its output to where the row's
/// check reads it (a DoubleBuffer form's result, for instance).
struct peer_call {
  std::string name;
  std::function<void(cudaStream_t)> work;
  std::function<void(cudaStream_t)> publish = {};
};

/// One comparison: ours and the peer on the same input, and the bytes that must move.
struct comparison {
  std::string name;      // e.g. "select_if f32 keep=1%"
  double elements = 0;   // elements processed per run
  double limit_bytes = 0;
  std::string byte_model;  // how limit_bytes was counted
  timing ours;
  std::string peer_name;  // the fastest of the peer's calls
  timing peer;
  std::vector<std::pair<std::string, timing>> peer_calls;  // every call of the peer that was timed
  std::string peer_cccl;  // the CCCL the peer came from when not the toolkit's (toolkit_cccl_version())
};

class report;

/// Times ours, then every call of the peer, on the same data, and reports the fastest call as the
/// peer; runs that call once more (and its publish), so that its output is the peer's last, then
/// `check(row)` compares the outputs (and exits the benchmark on a mismatch; it may add a note to
/// row.name); adds the row.
void compare(report& rep, const options& opts, comparison row, const std::vector<peer_call>& peers,
             const std::function<void(cudaStream_t)>& ours, const std::function<void(comparison&)>& check,
             cudaStream_t stream);

/// The same for a peer that is called one way only (not CUB: SciPy's exports, our CPU path).
void compare(report& rep, const options& opts, comparison row, std::string peer_name,
             const std::function<void(cudaStream_t)>& ours, const std::function<void(cudaStream_t)>& peer,
             const std::function<void(const comparison&)>& check, cudaStream_t stream);

/// A benchmark's main: parses the options, returns 0 with a message when no GPU is usable, gives
/// `body` a stream, and turns a bkt::error into one line on stderr and exit code 3.
int run_main(int argc, char** argv, const std::string& name, const std::string& description,
             const std::function<void(const options&, cudaStream_t)>& body);

class report {
 public:
  report(std::string title, const options& opts, cudaStream_t stream);
  void add(comparison c);
  /// Prints the table to stdout (and warnings on noisy rows), writes JSON when asked.
  void finish() const;
  double bandwidth() const { return bandwidth_; }

 private:
  std::string title_;
  options opts_;
  double bandwidth_ = 0;
  double read_bandwidth_ = 0;
  std::string device_;
  std::vector<comparison> rows_;
};

}  // namespace bkt::bench
