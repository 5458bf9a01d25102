// Högbom on device data with no host round trip per iteration: the host replays batches of step
// launches (hogbom_kernels.hpp) and reads the device state only between batches.
#pragma once

#include <cuda_runtime_api.h>

#include <vector>

#include "image.hpp"
#include "bkt/device_buffer.hpp"
#include "graph_handle.hpp"
#include "hogbom_state.hpp"

namespace bkt::clean::gpu {

struct hogbom_launch_options {
  int steps_per_batch = 256;  // iterations between two looks at the stop flag
  bool use_graph = true;      // false: plain launches (BKT_CLEAN_NO_GRAPH=1), to rule the graph out
  bool trace = false;         // the state after every batch on stderr (BKT_CLEAN_TRACE=1)
};

/// Defaults, changed by BKT_CLEAN_NO_GRAPH=1, BKT_CLEAN_TRACE=1 and BKT_CLEAN_BATCH=N.
hogbom_launch_options launch_options_from_environment();

/// What one run returns.
struct hogbom_outcome {
  std::vector<component_record> components;  // in the order taken
  stop_reason reason = stop_reason::no_pixels;
  float peak = 0;  // |R| of the peak the loop stopped on; 0 when there was no candidate
};

/// Runs Högbom on one device plane, as often as asked; the graph and state are built once.
class hogbom_runner {
 public:
  hogbom_runner(const device_plane& plane, const stop_rules& rules, cudaStream_t stream,
                const hogbom_launch_options& options = launch_options_from_environment());

  /// Runs until a stop rule fires; plane.residual holds the dirty image on entry and the residual
  /// on return. Waits for `stream` between batches and at the end.
  hogbom_outcome run_sync(cudaStream_t stream);

 private:
  /// Appends the components [drained, count) from the device ring and re-poisons the ring.
  void drain(std::vector<component_record>& out, std::int64_t count, cudaStream_t stream);

  device_plane plane_;
  stop_rules rules_;
  hogbom_launch_options options_;
  int steps_ = 1;
  int grid_blocks_ = 1;
  device_buffer<hogbom_state> state_;
  device_buffer<component_record> ring_;
  hogbom_step_args args_;
  executable_graph batch_;
};

}  // namespace bkt::clean::gpu
