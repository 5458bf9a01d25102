// One job at a time on a second thread, so that the caller's next step overlaps it: the external
// sort writes a split chunk to the spill file, or a sorted bucket to the output, while it reads
// the next one. A job's exception comes out of the next submit() or wait().
#pragma once

#include <functional>
#include <future>

namespace bkt::radixsort {

class background_job {
 public:
  background_job() = default;
  background_job(const background_job&) = delete;
  background_job& operator=(const background_job&) = delete;
  /// Waits for the job under way, so that what it uses outlives it (its error is dropped: one is
  /// already on its way when a run unwinds).
  ~background_job() { wait_quietly(); }

  /// Waits for the previous job, then starts `job`.
  void submit(std::function<void()> job) {
    wait();
    pending_ = std::async(std::launch::async, std::move(job));
  }

  /// Waits for the job under way, if any; rethrows its exception.
  void wait() {
    if (pending_.valid()) pending_.get();
  }

  /// Waits without rethrowing: before what the job uses goes away on an error's way out.
  void wait_quietly() noexcept {
    if (pending_.valid()) pending_.wait();
  }

 private:
  std::future<void> pending_;
};

}  // namespace bkt::radixsort
