// What every tool's command line shares: the numeric input and output flags, --cpu, --json,
// --verbose, --version, and the wrapper that runs a tool and maps failures to exit codes.
#pragma once

#include <CLI/CLI.hpp>
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
};

/// Adds --cpu, --json FILE, --verbose and --version ("TOOL 0.1.0") to `app`.
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
/// std::exception 1. Returns the exit code for main to return.
int run_tool(std::string_view tool_name, CLI::App& app, int argc, char** argv, const common_flags& flags,
             const std::function<void()>& body);

/// Whether to use the GPU: not --cpu and bkt::gpu_available().
bool use_gpu(const common_flags& flags);
/// The GPU's name when `on_gpu`, else "cpu".
std::string device_label(bool on_gpu);

/// Writes `summary` (indented, newline-terminated) to flags.json_path, when one was given;
/// "-" is standard output. Files are written whole or not at all.
void write_json_summary(const common_flags& flags, const nlohmann::json& summary);

/// Refuses (usage error) a --json summary and the data output both on standard output.
void check_json_destination(const common_flags& flags, const output_options& output);

}  // namespace bkt::apps
