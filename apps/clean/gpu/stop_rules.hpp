// The stop rules of cpu/stop_rules.hpp on a packed peak key, evaluated identically by every block
// of a step launch (so that all of them agree without talking) and by the host between Clark's
// major cycles.
#pragma once

#include <cstdint>

#include "bkt/config.hpp"
#include "cpu/stop_rules.hpp"
#include "peak_key.hpp"

namespace bkt::clean::gpu {

using clean::reason_of;
using clean::rules_of;
using clean::step_decision;
using clean::stop_rules;

/// decide_step on the peak `key` (no_peak: no candidate left).
BKT_HOST_DEVICE inline step_decision decide_step(std::uint64_t key, std::int64_t taken, float first_peak,
                                                 const stop_rules& rules) {
  return clean::decide_step(key != no_peak, peak_magnitude(key), taken, first_peak, rules);
}

}  // namespace bkt::clean::gpu
