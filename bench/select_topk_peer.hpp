// select_bench's top-k peers from a CCCL newer than the toolkit's, which has neither
// cub::DeviceTopK nor cub::DeviceBatchedTopK: select_topk_peer.cu is the one translation unit
// compiled against those headers (BKT_BENCH_CCCL_PEER_INCLUDE, scripts/fetch-cccl-peer.sh), and this
// interface carries no CUB type, so that the toolkit's CCCL (select_bench.cu, the core) and the
// peer's never meet in one translation unit. Without those headers every call list is empty.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cub_peer.cuh"
#include "harness.hpp"

namespace bkt::bench::topk_peer {

/// The peer CCCL's version ("3.5.0"), or "" when select_bench was built without it.
std::string cccl_version();

/// cub::DeviceTopK::MaxPairs of the k largest of data[0, n) with their positions (a counting
/// iterator) into keys_out and indices_out, unsorted (the only output order it implements), with
/// int and with int64_t counts. Empty without the peer CCCL.
std::vector<peer_call> max_pairs(cub_storage& storage, const float* data, std::int64_t n, std::int64_t k,
                                 float* keys_out, std::uint32_t* indices_out, cudaStream_t stream);

/// The longest row cub::DeviceBatchedTopK takes for f32 keys with u32 values (one thread block a
/// row, its tile in at most 48 KB of static shared memory: 8192), or 0 without the peer CCCL.
std::int64_t batched_max_row();

/// cub::DeviceBatchedTopK::MaxPairs of every row of a rows x cols matrix: row r's k largest and
/// their column numbers into keys_out/indices_out[r * k, (r + 1) * k), unsorted; segment size, k
/// and row count as int and as int64_t, and the segment size as a compile-time constant where the
/// row length is one this file instantiates (4096). Empty when cols > batched_max_row().
std::vector<peer_call> batched_max_pairs(cub_storage& storage, const float* data, std::int64_t rows, std::int64_t cols,
                                         std::int64_t k, float* keys_out, std::uint32_t* indices_out,
                                         cudaStream_t stream);

}  // namespace bkt::bench::topk_peer
