// The one way the tools' host code uses threads: chunks of an index range handed out to workers.
#pragma once

#include <cstdint>
#include <functional>

namespace bkt::apps {

/// The number of threads `threads` asks for: itself when positive, else the hardware's.
int resolve_threads(int threads);

/// Calls body(begin, end) for consecutive chunks of `grain` indices covering [0, count), on up
/// to resolve_threads(threads) threads (the caller's among them), handing chunks out in
/// increasing order; returns when all are done. The chunks are fixed by count and grain alone, so
/// results written by chunk do not depend on the thread count. A loop over tasks is grain 1:
/// body(i, i + 1). The first exception a body throws is rethrown here; no chunk starts after it.
void parallel_for(std::int64_t count, std::int64_t grain, int threads,
                  const std::function<void(std::int64_t begin, std::int64_t end)>& body);

}  // namespace bkt::apps
