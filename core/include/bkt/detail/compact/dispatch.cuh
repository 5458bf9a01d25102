// Device-level compaction: sizes the workspace, clears the look-back state, launches and checks.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "bkt/detail/compact/compact_kernel.cuh"
#include "bkt/detail/compact/tile_shape.hpp"
#include "bkt/detail/device/alignment.hpp"
#include "bkt/device/occupancy.cuh"
#include "bkt/error.hpp"
#include "bkt/workspace.hpp"

namespace bkt::detail::compact {

template <class Key, class Value>
struct compact_pointers {
  const Key* keys_in = nullptr;
  const Value* values_in = nullptr;
  Key* keys_out = nullptr;
  Value* values_out = nullptr;
  Key* keys_rejected = nullptr;
  Value* values_rejected = nullptr;
};

template <output_mode Mode, class Key, class Value, class Pick>
void run(const compact_pointers<Key, Value>& io, std::int64_t num_items, std::int64_t* num_selected,
         Pick pick, workspace& ws, cudaStream_t stream) {
  static_assert(std::is_trivially_copyable_v<Key>, "keys must be trivially copyable");
  static_assert(std::is_trivially_copyable_v<Value>, "values must be trivially copyable");
  using shape = tile_shape<sizeof(Key), value_bytes<Value>>;
  if (num_items == 0) {
    BKT_CUDA_CHECK(cudaMemsetAsync(num_selected, 0, sizeof(*num_selected), stream));
    return;
  }
  const std::int64_t tiles = (num_items + shape::tile_items - 1) / shape::tile_items;
  const std::size_t bytes = workspace_bytes(num_items, sizeof(Key), value_bytes<Value>);
  auto* status = static_cast<std::uint64_t*>(ws.reserve(bytes, stream));
  BKT_CUDA_CHECK(cudaMemsetAsync(status, 0, bytes, stream));

  using flag_type = typename Pick::flag_type;
  const bool vector_keys = aligned_to(io.keys_in, packed_run<Key, shape::run_items>::alignment);
  const bool vector_flags =
      !Pick::reads_flags || aligned_to(pick.flags(), packed_run<flag_type, shape::run_items>::alignment);
  // The copy engine moves 16-byte-aligned blocks; tiles are whole multiples of 16 bytes.
  const bool bulk_loads = aligned_to(io.keys_in, 16) && (!Pick::reads_flags || aligned_to(pick.flags(), 16));
  const compact_args<Key, Value> args{io.keys_in,  io.values_in, io.keys_out,   io.values_out, io.keys_rejected,
                                      io.values_rejected, num_items, tiles, num_selected, status, vector_keys,
                                      vector_flags, bulk_loads};
  auto kernel = compact_tile_kernel<shape, Mode, Key, Value, Pick>;
  constexpr std::size_t shared = shared_bytes<shape, Key, Value, Pick>();
  static_assert(shared <= 227 * 1024, "a block's shared memory on sm_90 is at most 227 KB");
  allow_shared_bytes(kernel, shared);
  const std::int64_t resident = resident_blocks(kernel, shape::block_threads, shared);
  const dim3 grid(static_cast<unsigned>(std::min(tiles, resident)));
  kernel<<<grid, shape::block_threads, shared, stream>>>(args, pick);
  BKT_CHECK_LAUNCH(stream);

  if constexpr (Mode == output_mode::partition_reversed) {
    constexpr int threads = 256;
    const std::int64_t wanted = (num_items / 2 + threads - 1) / threads;
    const unsigned blocks = static_cast<unsigned>(wanted < 4096 ? (wanted > 0 ? wanted : 1) : 4096);
    reverse_rejected_kernel<<<blocks, threads, 0, stream>>>(io.keys_out, io.values_out, num_items, num_selected);
    BKT_CHECK_LAUNCH(stream);
  }
}

}  // namespace bkt::detail::compact
