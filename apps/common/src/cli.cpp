// The flags both tools share, and run_tool: parse, run, map every failure to one line and a code.
#include "bkt_apps/cli.hpp"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <limits>
#include <new>

#include "bkt/error.hpp"
#include "bkt/gpu.hpp"
#include "bkt_apps/output_file.hpp"

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
        return parse(input) ? std::string() : "'" + input + "' is not one of " + choices;
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

}  // namespace

void add_common_flags(CLI::App& app, common_flags& flags, std::string_view tool_name) {
  app.add_flag("--cpu", flags.cpu, "run on the CPU even when a GPU is present");
  app.add_option("--json", flags.json_path,
                 "write a timing summary as JSON to FILE ('-': standard output, when the data goes to a file)")
      ->type_name("FILE");
  app.add_flag("--verbose", flags.verbose, "report each phase on stderr, and where library errors arose");
  app.set_version_flag("--version", std::string(tool_name) + " " + BKT_VERSION);
}

void add_input_flags(CLI::App& app, input_options& options) {
  app.add_option_function<std::string>(
         "--dtype", [&options](const std::string& name) { options.type = parse_dtype(name); },
         "element type: " + std::string(dtype_list()) +
             " (NumPy names such as uint32 and float64 too); "
             "raw input needs it, text defaults to f64, npy files say their own")
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
      ->check(CLI::Range(std::int64_t{1}, std::numeric_limits<std::int64_t>::max()).description(""));
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
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version arrive as "errors" with code 0: CLI11 prints them. Real parse errors
    // get our one-line form; CLI11's codes vary by kind, ours is always 2.
    if (e.get_exit_code() == 0) return app.exit(e);
    print_error(tool_name, std::string(e.what()) + " (see --help)");
    return exit_usage;
  }
  try {
    body();
    return exit_ok;
  } catch (const app_error& e) {
    print_error(tool_name, e.what());
    return e.code();
  } catch (const bkt::error& e) {
    std::string message = e.out_of_memory() ? std::string("GPU out of memory: ") + e.what() : e.what();
    if (flags.verbose && e.file() != nullptr)
      message += std::string(" (") + e.file() + ":" + std::to_string(e.line()) + ")";
    print_error(tool_name, message);
    return e.code() == cudaSuccess ? exit_bad_input : exit_gpu_failure;
  } catch (const std::bad_alloc&) {
    print_error(tool_name, "out of host memory");
    return exit_bad_input;
  } catch (const std::exception& e) {
    print_error(tool_name, e.what());
    return exit_bad_input;
  }
}

bool use_gpu(const common_flags& flags) { return !flags.cpu && bkt::gpu_available(); }

std::string device_label(bool on_gpu) { return on_gpu ? bkt::current_device_info().name : "cpu"; }

void write_json_summary(const common_flags& flags, const nlohmann::json& summary) {
  if (flags.json_path.empty()) return;
  write_text_file(flags.json_path, summary.dump(2) + "\n");
}

void check_json_destination(const common_flags& flags, const output_options& output) {
  if (flags.json_path == "-" && is_standard_stream(output.path))
    throw usage_error("--json - and the data cannot share standard output: give -o FILE or --json FILE");
}

}  // namespace bkt::apps
