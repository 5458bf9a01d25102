// Launching Högbom steps: a batch is `steps` step launches and one launch that advances the
// batch's base, either captured once as a graph and replayed, or launched directly.
#pragma once

#include <cuda_runtime_api.h>

#include "graph_handle.hpp"
#include "hogbom_state.hpp"

namespace bkt::clean::gpu {

/// Blocks of the persistent step grid: what fills every SM at full occupancy, at most one per tile.
int hogbom_grid_blocks(const device_plane& plane);

/// A graph of `steps` step launches (k = batch_base .. batch_base + steps - 1), then batch_base +=
/// steps. Replaying it runs the next batch: the arguments never change, the state does.
executable_graph make_hogbom_batch(const hogbom_step_args& args, int steps, int grid_blocks);

/// The same launches issued one by one on `stream` (each checked; with BKT_DEBUG_SYNC each synced).
void launch_hogbom_batch(const hogbom_step_args& args, int steps, int grid_blocks, cudaStream_t stream);

}  // namespace bkt::clean::gpu
