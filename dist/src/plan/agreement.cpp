#include "bkt/dist/detail/agreement.hpp"

#include <new>

#include "bkt/error.hpp"

namespace bkt::dist::detail {
namespace {

const char* failure_name(failure f) {
  switch (f) {
    case failure::none: return "no failure";
    case failure::bad_argument: return "a bad argument";
    case failure::out_of_memory: return "out of device memory";
    case failure::device_error: return "a CUDA error";
  }
  return "an unknown failure";
}

}  // namespace

failure classify(const std::exception& e) {
  if (const auto* bkt_error = dynamic_cast<const error*>(&e)) {
    if (bkt_error->out_of_memory()) return failure::out_of_memory;
    return bkt_error->code() == cudaSuccess ? failure::bad_argument : failure::device_error;
  }
  if (dynamic_cast<const std::bad_alloc*>(&e) != nullptr) return failure::out_of_memory;
  return failure::bad_argument;
}

std::array<std::int64_t, record_words> call_record::words() const {
  std::array<std::int64_t, record_words> w{};
  w[0] = static_cast<std::int64_t>(status);
  w[1] = items;
  w[2] = own;
  for (int i = 0; i < agreed_words; ++i) w[3 + i] = agreed[i];
  return w;
}

agreement check_agreement(const std::string& call, std::span<const std::int64_t> gathered, int num_ranks, int rank,
                          std::span<const char* const> names, const std::string& local_message) {
  BKT_EXPECTS(num_ranks >= 1 && rank >= 0 && rank < num_ranks, "bkt::dist: rank outside the communicator");
  BKT_EXPECTS(gathered.size() == static_cast<std::size_t>(num_ranks) * record_words,
              "bkt::dist: gathered records of the wrong size");
  BKT_EXPECTS(names.size() <= static_cast<std::size_t>(agreed_words), "bkt::dist: too many agreed parameters");
  agreement result;
  result.records.resize(static_cast<std::size_t>(num_ranks));
  for (int r = 0; r < num_ranks; ++r) {
    const std::int64_t* w = gathered.data() + static_cast<std::size_t>(r) * record_words;
    auto& record = result.records[r];
    record.status = w[0] >= 0 && w[0] <= 3 ? static_cast<failure>(w[0]) : failure::device_error;
    record.items = w[1];
    record.own = w[2];
    for (int i = 0; i < agreed_words; ++i) record.agreed[i] = w[3 + i];
  }
  const std::string where = " (rank " + std::to_string(rank) + " of " + std::to_string(num_ranks) + ")";
  if (result.records[rank].status != failure::none) throw_everywhere(call, local_message + where);
  for (int r = 0; r < num_ranks; ++r)
    if (result.records[r].status != failure::none)
      throw_everywhere(call, "rank " + std::to_string(r) + " failed with " + failure_name(result.records[r].status) +
                                 " before the exchange; its own error says why" + where);
  for (std::size_t i = 0; i < names.size(); ++i)
    for (int r = 1; r < num_ranks; ++r)
      if (result.records[r].agreed[i] != result.records[0].agreed[i])
        throw_everywhere(call, std::string("the ranks disagree on ") + names[i] + ": rank 0 has " +
                                   std::to_string(result.records[0].agreed[i]) + ", rank " + std::to_string(r) +
                                   " has " + std::to_string(result.records[r].agreed[i]) + where);
  result.items.resize(static_cast<std::size_t>(num_ranks));
  result.starts.resize(static_cast<std::size_t>(num_ranks));
  for (int r = 0; r < num_ranks; ++r) {
    if (result.records[r].items < 0)
      throw_everywhere(call, "rank " + std::to_string(r) + " reports a negative size" + where);
    result.items[r] = result.records[r].items;
    result.starts[r] = result.total;
    result.total += result.items[r];
  }
  return result;
}

std::int64_t digest(std::span<const std::int64_t> values) {
  std::uint64_t hash = 0xcbf29ce484222325ull;  // FNV-1a over the bytes
  for (const std::int64_t v : values)
    for (int byte = 0; byte < 8; ++byte) {
      hash ^= (static_cast<std::uint64_t>(v) >> (8 * byte)) & 0xffu;
      hash *= 0x100000001b3ull;
    }
  return static_cast<std::int64_t>(hash >> 1);
}

void throw_everywhere(const std::string& call, const std::string& message) {
  throw error(call + ": " + message, cudaSuccess, __FILE__, __LINE__);
}

}  // namespace bkt::dist::detail
