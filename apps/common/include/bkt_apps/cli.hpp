// What every tool's command line shares: the numeric input and output flags, --cpu, --json,
// --verbose, --version, and the wrapper that runs a tool and maps failures to exit codes.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "bkt_apps/numeric_io.hpp"

namespace bkt::apps {

/// The flags of common_flags below, after parsing.
struct common_flags {
  bool cpu = false;       // --cpu: the CPU path even when a GPU is present
  std::string json_path;  // --json FILE: a timing summary there ("-": standard output); empty: none
  bool verbose = false;   // --verbose: phases on stderr; file:line of library errors
  std::int64_t max_memory = 0;  // --max-memory SIZE: host memory the run may use; 0: what is available
};

/// Adds --cpu, --json FILE, --verbose, --max-memory SIZE and --version ("TOOL 0.1.0") to `app`.
void add_common_flags(CLI::App& app, common_flags& flags, std::string_view tool_name);

/// Adds --dtype, --endian, --format, --column, --skip-header and --delimiter, parsed into
/// `options` (the tool adds the positional input path itself, into options.path). Bad values are
/// CLI11 validation errors (exit 2).
void add_input_flags(CLI::App& app, input_options& options);

/// Adds -o/--output and --output-format. The byte order of raw output is the tool's choice (both
/// tools use the input's --endian).
void add_output_flags(CLI::App& app, output_options& options);

/// Parses argv and runs `body`, turning every failure into one line "TOOL: message" on stderr and
/// an exit code: CLI11 parse errors 2 (--help and --version 0), app_error its code(), bkt::error
/// 3 when a CUDA call failed (with file:line under --verbose), out of host memory and any other
/// std::exception 1. Returns the exit code for main to return. Launched by mpirun with several
/// ranks, it refuses (usage error): such a tool runs as one process.
int run_tool(std::string_view tool_name, CLI::App& app, int argc, char** argv, const common_flags& flags,
             const std::function<void()>& body);

class rank_context;

/// run_tool for a tool that runs on several ranks (mpirun -np N; bkt_apps/ranks.hpp): `body` gets
/// the process's rank_context, made before parsing and before any CUDA call. A failure the ranks
/// have not agreed yet is offered to the others, who meet it at their next all_succeeded() or
/// commit_together(); rank 0 alone prints "TOOL: rank R: message" for the lowest failing rank,
/// and every rank returns that rank's exit code. An MPI failure aborts the job. One rank: the
/// same as the run_tool above.
int run_tool(std::string_view tool_name, CLI::App& app, int argc, char** argv, const common_flags& flags,
             const std::function<void(rank_context&)>& body);

/// Whether to use the GPU: not --cpu and bkt::gpu_available().
bool use_gpu(const common_flags& flags);
/// The GPU's name when `on_gpu`, else "cpu".
std::string device_label(bool on_gpu);

class output_file;
class output_set;

/// Adds flags.json_path ("-": standard output), when one was given, to the run's `outputs` as its
/// summary: created now, shown by commit_all() after the other files. nullptr when none was given.
output_file* add_json_summary(output_set& outputs, const common_flags& flags);
/// Writes `summary` (indented, newline-terminated) into `json`; nothing when it is nullptr.
void write_json_summary(output_file* json, const nlohmann::json& summary);

/// Refuses (usage error) a --json summary and the data output both on standard output.
void check_json_destination(const common_flags& flags, const output_options& output);

}  // namespace bkt::apps
