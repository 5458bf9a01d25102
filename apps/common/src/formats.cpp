// Format and byte-order names, and the rules that pick a format from a file name.
#include <algorithm>
#include <cctype>
#include <string>

#include "bkt_apps/numeric_io.hpp"

namespace bkt::apps {
namespace {

std::string lowercase(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  return lower;
}

}  // namespace

std::optional<file_format> parse_file_format(std::string_view name) {
  const std::string lower = lowercase(name);
  if (lower == "raw" || lower == "bin" || lower == "binary") return file_format::raw;
  if (lower == "npy") return file_format::npy;
  if (lower == "text" || lower == "txt" || lower == "csv" || lower == "tsv") return file_format::text;
  return std::nullopt;
}

std::string_view file_format_name(file_format format) {
  switch (format) {
    case file_format::raw:
      return "raw";
    case file_format::npy:
      return "npy";
    case file_format::text:
      break;
  }
  return "text";
}

std::optional<byte_order> parse_byte_order(std::string_view name) {
  const std::string lower = lowercase(name);
  if (lower == "little" || lower == "le") return byte_order::little;
  if (lower == "big" || lower == "be") return byte_order::big;
  return std::nullopt;
}

std::string_view byte_order_name(byte_order order) { return order == byte_order::big ? "big" : "little"; }

bool is_standard_stream(std::string_view path) { return path.empty() || path == "-"; }

std::optional<file_format> format_from_extension(std::string_view path) {
  const std::size_t slash = path.find_last_of('/');
  const std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  const std::size_t dot = base.find_last_of('.');
  if (dot == std::string_view::npos || dot == 0) return std::nullopt;
  const std::string extension = lowercase(base.substr(dot + 1));
  if (extension == "npy") return file_format::npy;
  if (extension == "txt" || extension == "csv" || extension == "tsv") return file_format::text;
  return std::nullopt;
}

file_format resolve_output_format(const output_options& options, file_format input_format) {
  if (options.format) return *options.format;
  if (!is_standard_stream(options.path))
    if (const auto implied = format_from_extension(options.path)) return *implied;
  return input_format;
}

}  // namespace bkt::apps
