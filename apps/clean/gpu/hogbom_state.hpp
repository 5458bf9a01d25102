// The Högbom loop's state in device memory, which the step launches read and write so that no
// iteration waits for the host.
//
// Step k (k = 0, 1, 2, ...) is one launch: for k > 0 it decides on peak k-1 (take it as component
// k-1, or stop), subtracts it and searches peak k in the same pass (residual_sweep.cuh); step 0
// only searches. Every block evaluates the stop rules on the same inputs, so all agree without
// talking; block 0's first thread alone writes the records.
#pragma once

#include <cstdint>

#include "plane_geometry.hpp"
#include "stop_rules.hpp"

namespace bkt::clean::gpu {

/// Peak slots in the ring: step k reads slot (k-1) % 4, max-reduces into slot k % 4 and clears
/// slot (k+1) % 4 for step k+1 (last read by step k-2, which has finished).
inline constexpr int peak_ring_slots = 4;

/// A taken component as the device records it.
struct component_record {
  std::uint32_t index = 0;  // y * width + x
  float flux = 0;
};

struct hogbom_state {
  std::uint64_t peak_slots[peak_ring_slots];
  std::int64_t batch_base;  // k of the batch's first step; only the advance launch changes it
  std::int64_t taken;       // components taken, written when the loop stops
  std::uint64_t final_key;  // the peak the loop stopped on (peak_residual, 0 for none)
  float first_peak;         // |R| of component 0, for the divergence rule
  std::int32_t stopped;     // nonzero once a step decided to stop: later steps return at once
  std::int32_t reason;      // the step_decision that stopped the loop
};

struct hogbom_step_args {
  hogbom_state* state = nullptr;
  /// Ring of component_capacity records: component j goes to j % component_capacity. The host
  /// drains it after every batch, and a batch takes at most component_capacity components.
  component_record* components = nullptr;
  std::int64_t component_capacity = 0;
  device_plane plane;
  stop_rules rules;
};

}  // namespace bkt::clean::gpu
