// A warp's queue of words that need divergent work: lanes set their words aside as they meet
// them and the warp handles 32 at a time, one per lane, in step.
#pragma once

#include "bkt/device/warp_scan.cuh"

namespace bkt::detail {

/// Words a warp sets aside for work that would diverge if each lane did it when it met its word:
/// offer() keeps the words of the lanes that take, and once 32 are waiting every lane handles one
/// (handle(word)); finish() handles the rest. Every lane of the warp calls both equally often.
template <class W>
struct warp_queue {
  static constexpr int length = 64;
  W* words;        // `length` words of shared memory, this warp's own
  int waiting = 0;  // the same in every lane

  template <class Handle>
  __device__ void offer(bool take, W w, Handle&& handle) {
    const unsigned mask = __ballot_sync(full_warp_mask, take);
    if (mask == 0) return;
    if (take) words[waiting + __popc(mask & lane_mask_lt())] = w;
    waiting += __popc(mask);
    if (waiting >= warp_threads) {
      __syncwarp();
      waiting -= warp_threads;
      handle(words[waiting + lane_id()]);
      __syncwarp();
    }
  }

  template <class Handle>
  __device__ void finish(Handle&& handle) {
    __syncwarp();
    if (lane_id() < waiting) handle(words[lane_id()]);
  }
};

}  // namespace bkt::detail
