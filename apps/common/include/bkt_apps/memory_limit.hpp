// Host memory planning: a tool works out what an input implies (vertices, bins, pixels, an
// inflated archive) before allocating it, and refuses at once when that exceeds what the machine
// has or what --max-memory allows, instead of swapping the machine to a halt.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace bkt::apps {

struct common_flags;

/// Parses a size: a number of bytes, optionally with a binary suffix K, M, G or T (also KB, KiB,
/// ..., any case), e.g. "2G", "512M", "1.5T", "100000". Nullopt when malformed or out of range.
std::optional<std::int64_t> parse_size(std::string_view text);

/// "2.4 GB", "512 MB", "900 bytes": a size for messages (decimal units, three digits).
std::string format_size(std::int64_t bytes);

/// The host memory a run may use: --max-memory when given, else the memory the kernel reports
/// available (MemAvailable in /proc/meminfo; the physical memory where that is missing).
std::int64_t host_memory_budget(const common_flags& flags);

/// Throws app_error (exit 1) "SUBJECT: WHAT needs SIZE of host memory, more than the BUDGET
/// available (--max-memory)" when `needed` exceeds `budget`. SUBJECT is normally the input file.
void require_host_memory(std::int64_t budget, std::int64_t needed, std::string_view subject,
                         std::string_view what);

}  // namespace bkt::apps
