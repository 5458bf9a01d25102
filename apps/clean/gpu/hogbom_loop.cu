#include "hogbom_loop.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bkt/error.hpp"
#include "bkt/memory.hpp"
#include "hogbom_kernels.hpp"

namespace bkt::clean::gpu {
namespace {

/// Ring slots are filled with this byte before every batch: a record still holding it was never
/// written, and its index (0xa5a5a5a5) lies beyond any image, so drain() catches it.
constexpr int ring_poison_byte = 0xa5;

bool environment_flag(const char* name) {
  const char* text = std::getenv(name);
  return text != nullptr && std::string(text) == "1";
}

void trace_state(const hogbom_state& s, std::int64_t batch) {
  std::fprintf(stderr,
               "bkt-clean hogbom: batch %lld base %lld stopped %d reason %d taken %lld first_peak %g "
               "slots %016llx %016llx %016llx %016llx\n",
               static_cast<long long>(batch), static_cast<long long>(s.batch_base), s.stopped, s.reason,
               static_cast<long long>(s.taken), static_cast<double>(s.first_peak),
               static_cast<unsigned long long>(s.peak_slots[0]), static_cast<unsigned long long>(s.peak_slots[1]),
               static_cast<unsigned long long>(s.peak_slots[2]), static_cast<unsigned long long>(s.peak_slots[3]));
}

}  // namespace

hogbom_launch_options launch_options_from_environment() {
  hogbom_launch_options options;
  options.use_graph = !environment_flag("BKT_CLEAN_NO_GRAPH");
  options.trace = environment_flag("BKT_CLEAN_TRACE");
  if (const char* text = std::getenv("BKT_CLEAN_BATCH"); text != nullptr)
    options.steps_per_batch = std::clamp(std::atoi(text), 1, 4096);
  return options;
}

hogbom_runner::hogbom_runner(const device_plane& plane, const stop_rules& rules, cudaStream_t stream,
                             const hogbom_launch_options& options)
    : plane_(plane), rules_(rules), options_(options) {
  BKT_EXPECTS(options.steps_per_batch >= 1, "hogbom_runner: steps_per_batch < 1");
  // Steps 0 .. niter+1 at most: the last one stops on the niter rule. No batch longer than that.
  // (Compared before adding, so that niter near 2^63 does not overflow.)
  steps_ = rules.niter >= options.steps_per_batch ? options.steps_per_batch : static_cast<int>(rules.niter) + 2;
  steps_ = std::min(steps_, options.steps_per_batch);
  grid_blocks_ = hogbom_grid_blocks(plane);
  state_ = device_buffer<hogbom_state>(1, stream);
  // A batch takes at most steps_ components and the host drains between batches.
  ring_ = device_buffer<component_record>(steps_, stream);
  args_.state = state_.data();
  args_.components = ring_.data();
  args_.component_capacity = steps_;
  args_.plane = plane;
  args_.rules = rules;
  if (options_.use_graph) batch_ = make_hogbom_batch(args_, steps_, grid_blocks_);
}

void hogbom_runner::drain(std::vector<component_record>& out, std::int64_t count, cudaStream_t stream) {
  const std::int64_t drained = static_cast<std::int64_t>(out.size());
  BKT_EXPECTS(count >= drained && count - drained <= steps_, "hogbom: component count out of step (internal error)");
  if (count > drained) {
    const std::vector<component_record> ring = to_host_sync<component_record>(ring_.span(), stream);
    for (std::int64_t j = drained; j < count; ++j) {
      const component_record record = ring[static_cast<std::size_t>(j % steps_)];
      if (record.index >= static_cast<std::uint32_t>(plane_.geometry.pixels()))
        throw error("hogbom: component " + std::to_string(j) + " was not written (ring slot " +
                        std::to_string(j % steps_) + " still poisoned; internal error)",
                    cudaSuccess, __FILE__, __LINE__);
      out.push_back(record);
    }
  }
  BKT_CUDA_CHECK(cudaMemsetAsync(ring_.data(), ring_poison_byte, ring_.size_bytes(), stream));
}

hogbom_outcome hogbom_runner::run_sync(cudaStream_t stream) {
  BKT_CUDA_CHECK(cudaMemsetAsync(state_.data(), 0, sizeof(hogbom_state), stream));
  BKT_CUDA_CHECK(cudaMemsetAsync(ring_.data(), ring_poison_byte, ring_.size_bytes(), stream));
  hogbom_outcome outcome;
  // Each batch advances k by steps_; the niter rule stops the loop by step niter + 1.
  const std::int64_t max_batches = rules_.niter / steps_ + 3;
  for (std::int64_t batch = 0;; ++batch) {
    if (options_.use_graph)
      batch_.launch(stream);
    else
      launch_hogbom_batch(args_, steps_, grid_blocks_, stream);
    const hogbom_state state = read_sync(state_.data(), stream);
    if (options_.trace) trace_state(state, batch);
    // Step k takes component k-1: after steps 0 .. base-1, base-1 components were taken.
    const std::int64_t count = state.stopped != 0 ? state.taken : state.batch_base - 1;
    drain(outcome.components, count, stream);
    if (state.stopped != 0) {
      outcome.reason = reason_of(static_cast<step_decision>(state.reason));
      outcome.peak = peak_magnitude(state.final_key);
      break;
    }
    if (batch + 1 >= max_batches)
      throw error("hogbom: no stop rule fired after " + std::to_string(state.batch_base) +
                      " steps with niter " + std::to_string(rules_.niter) + " (internal error)",
                  cudaSuccess, __FILE__, __LINE__);
  }
  BKT_CUDA_CHECK(cudaStreamSynchronize(stream));
  return outcome;
}

}  // namespace bkt::clean::gpu
