// Workers take the next chunk from an atomic counter, which balances uneven chunks (buckets of
// skewed graphs, pieces of a file) without any tuning.
#include "bkt_apps/parallel_for.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace bkt::apps {

int resolve_threads(int threads) {
  if (threads > 0) return threads;
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

void parallel_for(std::int64_t count, std::int64_t grain, int threads,
                  const std::function<void(std::int64_t, std::int64_t)>& body) {
  if (count <= 0) return;
  grain = std::max<std::int64_t>(grain, 1);
  const std::int64_t chunks = (count + grain - 1) / grain;
  const std::int64_t workers = std::min<std::int64_t>(resolve_threads(threads), chunks);
  if (workers <= 1) {
    for (std::int64_t chunk = 0; chunk < chunks; ++chunk) body(chunk * grain, std::min(count, (chunk + 1) * grain));
    return;
  }
  std::atomic<std::int64_t> next_chunk{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  const auto work = [&] {
    try {
      for (std::int64_t chunk = next_chunk++; chunk < chunks; chunk = next_chunk++)
        body(chunk * grain, std::min(count, (chunk + 1) * grain));
    } catch (...) {
      const std::lock_guard lock(failure_mutex);
      if (!failure) failure = std::current_exception();
      next_chunk = chunks;  // the others stop at their next chunk
    }
  };
  std::vector<std::jthread> pool;
  pool.reserve(static_cast<std::size_t>(workers - 1));
  try {
    for (std::int64_t w = 1; w < workers; ++w) pool.emplace_back(work);
  } catch (const std::system_error&) {
    // No more threads to be had: the ones started (and this one) do all the chunks.
  }
  work();
  pool.clear();  // joins
  if (failure) std::rethrow_exception(failure);
}

}  // namespace bkt::apps
