// parallel_for: std::thread workers pulling indices from one atomic counter.
#include "io/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace bkt::sssp::detail {

int resolve_threads(int requested) {
  if (requested > 0) return requested;
  return std::max(1u, std::thread::hardware_concurrency());
}

void parallel_for(int threads, std::int64_t count, const std::function<void(std::int64_t)>& task) {
  const std::int64_t workers = std::min<std::int64_t>(std::max(threads, 1), count);
  if (workers <= 1) {
    for (std::int64_t i = 0; i < count; ++i) task(i);
    return;
  }
  std::atomic<std::int64_t> next{0};
  std::exception_ptr first_error;
  std::mutex error_mutex;
  const auto work = [&] {
    for (std::int64_t i = next++; i < count; i = next++) {
      try {
        task(i);
      } catch (...) {
        const std::lock_guard lock(error_mutex);
        if (!first_error) first_error = std::current_exception();
        next = count;  // no point starting more tasks
      }
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(static_cast<std::size_t>(workers - 1));
  try {
    for (std::int64_t t = 1; t < workers; ++t) pool.emplace_back(work);
  } catch (const std::system_error&) {
    // No more threads to be had: the ones started (and this one) do all the tasks.
  }
  work();
  for (std::thread& thread : pool) thread.join();
  if (first_error) std::rethrow_exception(first_error);
}

}  // namespace bkt::sssp::detail
