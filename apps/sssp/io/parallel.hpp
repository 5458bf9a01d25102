// The one way the loader runs work on several threads: numbered tasks handed out in order.
#pragma once

#include <cstdint>
#include <functional>

namespace bkt::sssp::detail {

/// The thread count a load uses: `requested`, or std::thread::hardware_concurrency() for 0.
int resolve_threads(int requested);

/// Runs task(i) for every i in [0, count) on up to `threads` threads (the caller's among them),
/// handing out indices in increasing order. Waits for all; rethrows the first exception.
void parallel_for(int threads, std::int64_t count, const std::function<void(std::int64_t)>& task);

}  // namespace bkt::sssp::detail
