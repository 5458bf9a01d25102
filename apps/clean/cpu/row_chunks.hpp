// Splitting a range of image rows over threads. Each row is written by exactly one thread and no
// result depends on the split, so the output is the same for any thread count.
#pragma once

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

namespace bkt::clean::cpu {

/// Threads worth using for row work on this machine (memory-bound loops gain little past 8).
inline int row_worker_count() {
  const unsigned available = std::thread::hardware_concurrency();
  return static_cast<int>(std::clamp(available, 1u, 8u));
}

/// Calls work(first_row, last_row) over [first, last) in contiguous chunks, one per worker, on
/// threads when the rows hold enough pixels to repay starting them (about 10 us each); else inline.
template <class Work>
void for_row_chunks(std::int64_t first, std::int64_t last, std::int64_t pixels_per_row, int workers, Work&& work) {
  constexpr std::int64_t min_pixels_per_worker = std::int64_t{1} << 18;
  const std::int64_t rows = last - first;
  const std::int64_t useful = std::max<std::int64_t>(1, rows * pixels_per_row / min_pixels_per_worker);
  const std::int64_t chunks = std::min<std::int64_t>({workers, useful, std::max<std::int64_t>(rows, 1)});
  if (chunks <= 1) {
    work(first, last);
    return;
  }
  std::vector<std::jthread> threads;  // joined on the way out, also if starting one throws
  threads.reserve(static_cast<std::size_t>(chunks - 1));
  const auto chunk_start = [&](std::int64_t chunk) { return first + rows * chunk / chunks; };
  for (std::int64_t chunk = 1; chunk < chunks; ++chunk)
    threads.emplace_back([&work, begin = chunk_start(chunk), end = chunk_start(chunk + 1)] { work(begin, end); });
  work(chunk_start(0), chunk_start(1));
}

/// Calls work(i) for i in [0, count), up to `workers` at a time on threads (inline for one): for
/// per-channel or per-scale work whose items are each large.
template <class Work>
void for_each_index(std::int64_t count, int workers, Work&& work) {
  const std::int64_t lanes = std::min<std::int64_t>(std::max(workers, 1), count);
  if (lanes <= 1) {
    for (std::int64_t i = 0; i < count; ++i) work(i);
    return;
  }
  std::vector<std::jthread> threads;
  threads.reserve(static_cast<std::size_t>(lanes - 1));
  const auto lane_work = [&work, count, lanes](std::int64_t lane) {
    for (std::int64_t i = lane; i < count; i += lanes) work(i);
  };
  for (std::int64_t lane = 1; lane < lanes; ++lane) threads.emplace_back(lane_work, lane);
  lane_work(0);
}

}  // namespace bkt::clean::cpu
