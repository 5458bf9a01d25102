#include "cpu/fftw_support.hpp"

#include <algorithm>
#include <utility>

namespace bkt::clean::cpu {

std::mutex& fftw_planner_mutex() {
  static std::mutex planner_mutex;
  return planner_mutex;
}

void plan_with_threads(int threads) {
  static const bool threads_ready = fftwf_init_threads() != 0;  // once, under the planner lock
  fftwf_plan_with_nthreads(threads_ready ? std::max(threads, 1) : 1);
}

fftwf_plan_owner::~fftwf_plan_owner() {
  if (plan_ == nullptr) return;
  const std::lock_guard<std::mutex> lock(fftw_planner_mutex());
  fftwf_destroy_plan(plan_);
}

fftwf_plan_owner& fftwf_plan_owner::operator=(fftwf_plan_owner&& other) noexcept {
  fftwf_plan_owner old(std::exchange(plan_, std::exchange(other.plan_, nullptr)));
  return *this;  // `old` destroys the previous plan
}

std::int64_t fft_friendly_size(std::int64_t at_least) {
  for (std::int64_t n = at_least < 1 ? 1 : at_least;; ++n) {
    std::int64_t rest = n;
    for (const std::int64_t factor : {2, 3, 5, 7})
      while (rest % factor == 0) rest /= factor;
    if (rest == 1) return n;
  }
}

}  // namespace bkt::clean::cpu
