// Host memory planning: parsing --max-memory, reading what the machine has, refusing early.
#include "bkt_apps/memory_limit.hpp"

#include <unistd.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>

#include "bkt_apps/app_error.hpp"
#include "bkt_apps/cli.hpp"

namespace bkt::apps {
namespace {

std::optional<double> suffix_multiplier(std::string_view suffix) {
  std::string lower;
  for (char c : suffix) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower.empty() || lower == "b") return 1.0;
  if (lower.size() == 3 && lower.substr(1) == "ib") lower.resize(1);
  if (lower.size() == 2 && lower[1] == 'b') lower.resize(1);
  if (lower.size() != 1) return std::nullopt;
  switch (lower[0]) {
    case 'k': return 1024.0;
    case 'm': return 1024.0 * 1024;
    case 'g': return 1024.0 * 1024 * 1024;
    case 't': return 1024.0 * 1024 * 1024 * 1024;
    default: return std::nullopt;
  }
}

/// MemAvailable from /proc/meminfo, in bytes; nullopt where the kernel does not say.
std::optional<std::int64_t> meminfo_available() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::int64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  return std::nullopt;
}

}  // namespace

std::optional<std::int64_t> parse_size(std::string_view text) {
  std::size_t digits = 0;
  while (digits < text.size() && (std::isdigit(static_cast<unsigned char>(text[digits])) || text[digits] == '.'))
    ++digits;
  if (digits == 0) return std::nullopt;
  double number = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + digits, number);
  if (error != std::errc() || end != text.data() + digits) return std::nullopt;
  const auto multiplier = suffix_multiplier(text.substr(digits));
  if (!multiplier) return std::nullopt;
  const double bytes = std::floor(number * *multiplier);
  if (!(bytes >= 0) || bytes >= 9.2e18) return std::nullopt;
  return static_cast<std::int64_t>(bytes);
}

std::string format_size(std::int64_t bytes) {
  static constexpr const char* units[] = {"bytes", "kB", "MB", "GB", "TB", "PB", "EB"};
  if (bytes < 1000) return std::to_string(bytes) + " bytes";
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1000 && unit < 6) value /= 1000, ++unit;
  char text[32];
  std::snprintf(text, sizeof text, value < 10 ? "%.2f %s" : value < 100 ? "%.1f %s" : "%.0f %s", value, units[unit]);
  return text;
}

std::int64_t host_memory_budget(const common_flags& flags) {
  if (flags.max_memory > 0) return flags.max_memory;
  if (const auto available = meminfo_available()) return *available;
  const long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page_size > 0) return static_cast<std::int64_t>(pages) * page_size;
  return std::numeric_limits<std::int64_t>::max();
}

void require_host_memory(std::int64_t budget, std::int64_t needed, std::string_view subject, std::string_view what) {
  if (needed <= budget) return;
  throw app_error(std::string(subject) + ": " + std::string(what) + " needs " + format_size(needed) +
                  " of host memory, more than the " + format_size(budget) + " available (--max-memory)");
}

}  // namespace bkt::apps
