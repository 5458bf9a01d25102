// Every collective call begins by gathering one small record per rank: whether the rank's local
// checks and allocations succeeded, how many elements it holds, and the parameters that must be
// the same everywhere. check_agreement then gives every rank the same verdict, so that a call
// fails on all ranks or on none, instead of leaving the healthy ranks waiting in a collective for
// a rank that threw. Plain C++, shared by the GPU code and the CPU tests.
#pragma once

#include <array>
#include <cstdint>
#include <exception>
#include <span>
#include <string>
#include <vector>

namespace bkt::dist::detail {

/// Why a rank could not take part: none, a bad argument, no memory, or a failed CUDA call.
enum class failure : std::int64_t { none = 0, bad_argument = 1, out_of_memory = 2, device_error = 3 };

/// The failure kind of an exception thrown by a local step.
failure classify(const std::exception& e);

inline constexpr int agreed_words = 6;
inline constexpr int record_words = 3 + agreed_words;

/// One rank's record: status, element count, one value of its own (an output capacity), and
/// agreed_words parameters that must match across ranks.
struct call_record {
  failure status = failure::none;
  std::int64_t items = 0;
  std::int64_t own = 0;
  std::array<std::int64_t, agreed_words> agreed{};

  std::array<std::int64_t, record_words> words() const;
};

/// What the gathered records say.
struct agreement {
  std::vector<call_record> records;
  std::vector<std::int64_t> items;  ///< per rank
  std::vector<std::int64_t> starts; ///< global index of each rank's first element
  std::int64_t total = 0;
};

/// Reads num_ranks records (record_words each) and throws bkt::error on every rank alike when a
/// rank failed (this rank's own failure with local_message) or a parameter differs between ranks
/// (names[i] names agreed word i; unnamed words are not compared).
agreement check_agreement(const std::string& call, std::span<const std::int64_t> gathered, int num_ranks, int rank,
                          std::span<const char* const> names, const std::string& local_message);

/// A 63-bit digest of host data that must be the same on every rank (multiselect's ranks).
std::int64_t digest(std::span<const std::int64_t> values);

/// Throws bkt::error with `message` naming the call; used after check_agreement for checks whose
/// inputs every rank holds (so that every rank throws alike).
[[noreturn]] void throw_everywhere(const std::string& call, const std::string& message);

}  // namespace bkt::dist::detail
