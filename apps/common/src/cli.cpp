// The flags every tool shares, and run_tool: parse, run, map every failure to one line and a
// code, agreed across the ranks of an mpirun launch (bkt_apps/ranks.hpp).
#include "bkt_apps/cli.hpp"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <exception>
#include <limits>
#include <new>
#include <optional>

#include "bkt/error.hpp"
#include "bkt/gpu.hpp"
#include "bkt_apps/memory_limit.hpp"
#include "bkt_apps/number_options.hpp"
#include "bkt_apps/output_file.hpp"
#include "bkt_apps/output_set.hpp"
#include "bkt_apps/ranks.hpp"

#ifndef BKT_VERSION
#define BKT_VERSION "unknown"
#endif

namespace bkt::apps {
namespace {

/// A CLI11 validator that accepts what `parse` accepts. Its description is empty so that the
/// help shows the type name alone (CLI11 would append the description to it).
template <class Parse>
CLI::Validator named_values(Parse parse, std::string choices) {
  return CLI::Validator(
      [parse, choices](std::string& input) -> std::string {
        return parse(input) ? std::string() : quoted_excerpt(input) + " is not one of " + choices;
      },
      "");
}

std::optional<char> parse_delimiter(std::string_view text) {
  if (text == "," || text == "comma") return ',';
  if (text == "space" || text == "whitespace" || text == " ") return ' ';
  if (text == "tab" || text == "\\t" || text == "\t") return '\t';
  if (text == ";" || text == "semicolon") return ';';
  if (text == "auto") return char{0};
  return std::nullopt;
}

void print_error(std::string_view tool, const std::string& message) {
  std::fprintf(stderr, "%.*s: %s\n", static_cast<int>(tool.size()), tool.data(), message.c_str());
}

/// A failure as the tool reports it: one line and an exit code.
struct tool_failure {
  std::string message;
  int code = exit_bad_input;
};

/// The line and code of a caught exception: app_error its code(), bkt::error 3 when a CUDA call
/// failed (with file:line under --verbose), out of host memory and any other exception 1.
tool_failure describe_failure(std::exception_ptr caught, const common_flags& flags) {
  try {
    std::rethrow_exception(caught);
  } catch (const app_error& e) {
    return {e.what(), e.code()};
  } catch (const bkt::error& e) {
    std::string message = e.out_of_memory() ? std::string("GPU out of memory: ") + e.what() : e.what();
    if (flags.verbose && e.file() != nullptr)
      message += std::string(" (") + e.file() + ":" + std::to_string(e.line()) + ")";
    return {message, e.code() == cudaSuccess ? exit_bad_input : exit_gpu_failure};
  } catch (const std::bad_alloc&) {
    return {"out of host memory", exit_bad_input};
  } catch (const std::exception& e) {
    return {e.what(), exit_bad_input};
  } catch (...) {
    return {"unknown failure", exit_bad_input};
  }
}

}  // namespace

void add_common_flags(CLI::App& app, common_flags& flags, std::string_view tool_name) {
  app.add_flag("--cpu", flags.cpu, "run on the CPU even when a GPU is present");
  app.add_option("--json", flags.json_path,
                 "write a timing summary as JSON to FILE ('-': standard output, when the data goes to a file)")
      ->type_name("FILE");
  app.add_flag("--verbose", flags.verbose, "report each phase on stderr, and where library errors arose");
  app.add_option_function<std::string>(
         "--max-memory", [&flags](const std::string& text) { flags.max_memory = *parse_size(text); },
         "host memory the run may use, e.g. 2G or 512M (default: what the machine has available); "
         "inputs that need more are refused before anything is allocated")
      ->type_name("SIZE")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            const auto size = parse_size(text);
            return size && *size > 0 ? std::string() : "'" + text + "' is not a size such as 2G, 512M or 1000000";
          },
          ""));
  app.set_version_flag("--version", std::string(tool_name) + " " + BKT_VERSION);
}

void add_input_flags(CLI::App& app, input_options& options) {
  app.add_option_function<std::string>(
         "--dtype", [&options](const std::string& name) { options.type = parse_dtype(name); },
         "element type: " + std::string(dtype_list()) +
             " (NumPy names such as uint32 and float64 too); "
             "raw input needs it, npy files say their own; text without it: i64 when every value is an "
             "integer, u64 when one exceeds i64 and none is negative, else f64")
      ->type_name("TYPE")
      ->check(named_values(parse_dtype, std::string(dtype_list())));
  app.add_option_function<std::string>(
         "--endian", [&options](const std::string& name) { options.order = *parse_byte_order(name); },
         "byte order of raw input and output: little (default) or big")
      ->type_name("ORDER")
      ->check(named_values(parse_byte_order, "little, big"));
  app.add_option_function<std::string>(
         "--format", [&options](const std::string& name) { options.format = parse_file_format(name); },
         "input format: raw, npy or text; default: from the extension (.npy; .txt, .csv, .tsv), else "
         "raw, and on standard input npy when it starts like one, else text")
      ->type_name("FORMAT")
      ->check(named_values(parse_file_format, "raw, npy, text"));
  app.add_option_function<std::int64_t>(
         "--column", [&options](std::int64_t column) { options.column = column; },
         "1-based column to read: a field of each text line, or a column of a 2-D .npy array")
      ->type_name("N")
      ->transform(whole_number(1));
  app.add_flag("--skip-header", options.skip_header, "text: ignore the first line");
  app.add_option_function<std::string>(
         "--delimiter", [&options](const std::string& name) { options.delimiter = *parse_delimiter(name); },
         "text field separator: comma, tab, semicolon or space (runs of spaces and tabs); default: comma "
         "when the first data line has one, else space")
      ->type_name("SEP")
      ->check(named_values(parse_delimiter, "comma, tab, semicolon, space"));
}

void add_output_flags(CLI::App& app, output_options& options) {
  app.add_option("-o,--output", options.path, "output file (default: standard output); written whole or not at all")
      ->type_name("FILE");
  app.add_option_function<std::string>(
         "--output-format", [&options](const std::string& name) { options.format = parse_file_format(name); },
         "output format: raw, npy or text; default: from the output's extension, else the input's format")
      ->type_name("FORMAT")
      ->check(named_values(parse_file_format, "raw, npy, text"));
}

int run_tool(std::string_view tool_name, CLI::App& app, int argc, char** argv, const common_flags& flags,
             const std::function<void()>& body) {
  return run_tool(tool_name, app, argc, argv, flags, [&](rank_context& ranks) {
    if (ranks.several())
      throw usage_error("runs as one process, not as one of " + std::to_string(ranks.size()) +
                        " mpirun ranks (bkt-sssp spreads its sources over ranks; see docs/dist.md)");
    body();
  });
}

int run_tool(std::string_view tool_name, CLI::App& app, int argc, char** argv, const common_flags& flags,
             const std::function<void(rank_context&)>& body) {
  std::optional<rank_context> ranks;
  try {
    ranks.emplace();
  } catch (const mpi_failure& e) {
    print_error(tool_name, e.what());
    return exit_gpu_failure;
  } catch (const app_error& e) {
    print_error(tool_name, e.what());
    return e.code();
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Every rank parses the same arguments; rank 0 speaks for them all.
    // --help and --version arrive as "errors" with code 0: CLI11 prints them. Real parse errors
    // get our one-line form; CLI11's codes vary by kind, ours is always 2.
    if (e.get_exit_code() == 0) return ranks->is_root() ? app.exit(e) : exit_ok;
    if (ranks->is_root()) print_error(tool_name, std::string(e.what()) + " (see --help)");
    return exit_usage;
  }
  tool_failure failure;
  try {
    body(*ranks);
    return exit_ok;
  } catch (const ranks_failed& e) {
    // Already agreed: every rank holds the same message.
    if (ranks->is_root()) print_error(tool_name, e.what());
    return e.code();
  } catch (const mpi_failure& e) {
    // Other ranks may wait in a collective that will never complete: end them all.
    print_error(tool_name, e.what());
    ranks->abort_job(exit_gpu_failure);
    return exit_gpu_failure;
  } catch (...) {
    failure = describe_failure(std::current_exception(), flags);
  }
  if (!ranks->agreements_open()) {
    // Past the commit point: the other ranks are done and wait for nothing.
    print_error(tool_name, ranks->label(failure.message));
    return failure.code;
  }
  try {
    const rank_agreement agreement = ranks->all_succeeded(false, failure.message, failure.code);
    if (ranks->is_root())
      print_error(tool_name, ranks->several() ? "rank " + std::to_string(agreement.failed_rank) + ": " + agreement.message
                                              : agreement.message);
    return agreement.exit_code;
  } catch (const mpi_failure& e) {
    print_error(tool_name, ranks->label(failure.message));
    print_error(tool_name, e.what());
    ranks->abort_job(exit_gpu_failure);
    return exit_gpu_failure;
  }
}

bool use_gpu(const common_flags& flags) { return !flags.cpu && bkt::gpu_available(); }

std::string device_label(bool on_gpu) { return on_gpu ? bkt::current_device_info().name : "cpu"; }

output_file* add_json_summary(output_set& outputs, const common_flags& flags) {
  return flags.json_path.empty() ? nullptr : &outputs.add_summary(flags.json_path);
}

void write_json_summary(output_file* json, const nlohmann::json& summary) {
  if (json != nullptr) json->write(summary.dump(2) + "\n");
}

void check_json_destination(const common_flags& flags, const output_options& output) {
  if (flags.json_path == "-" && is_standard_stream(output.path))
    throw usage_error("--json - and the data cannot share standard output: give -o FILE or --json FILE");
}

}  // namespace bkt::apps
