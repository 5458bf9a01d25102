// What the bkt::dist calls need of a communicator beyond its public face, and the device scope
// every call opens.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "bkt/dist/communicator.hpp"
#include "bkt/dist/detail/agreement.hpp"

namespace bkt::dist::detail {

/// Device words of the communicator: the gathered call records, then one word for the barrier.
inline constexpr int barrier_word_offset(int num_ranks) { return num_ranks * record_words; }
inline constexpr int control_words(int num_ranks) { return num_ranks * record_words + 8; }

struct communicator_access {
  static std::int64_t* control(const communicator& comm) { return comm.control_; }
  static cudaStream_t side_stream(const communicator& comm) { return comm.side_; }
};

/// Makes `device` current for its lifetime and restores the caller's device after (NCCL and the
/// primitives run on the communicator's device whatever the caller had current).
class device_scope {
 public:
  explicit device_scope(int device);
  ~device_scope();
  device_scope(const device_scope&) = delete;
  device_scope& operator=(const device_scope&) = delete;

 private:
  int previous_ = -1;
};

}  // namespace bkt::dist::detail
