// The external sort's writer thread: jobs one at a time in submission order, and a job's error
// coming out of the caller's next step rather than being lost.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "background_job.hpp"

namespace bkt::radixsort::test {
namespace {

TEST(background_job, runs_one_job_at_a_time_in_order) {
  std::vector<int> done;  // no lock: only one job runs at a time, and wait() orders the reads
  std::atomic<int> running{0};
  background_job job;
  for (int i = 0; i < 20; ++i)
    job.submit([&, i] {
      EXPECT_EQ(running.fetch_add(1), 0);
      std::this_thread::sleep_for(std::chrono::milliseconds(i % 3));
      done.push_back(i);
      running.fetch_sub(1);
    });
  job.wait();
  ASSERT_EQ(done.size(), 20u);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(done[static_cast<std::size_t>(i)], i);
}

TEST(background_job, an_error_comes_out_of_the_next_submit_or_wait) {
  background_job job;
  bool second_ran = false;
  job.submit([] { throw std::runtime_error("disk full"); });
  EXPECT_THROW(job.submit([&] { second_ran = true; }), std::runtime_error);
  job.wait();
  EXPECT_FALSE(second_ran);
  job.submit([] { throw std::runtime_error("disk full"); });
  EXPECT_THROW(job.wait(), std::runtime_error);
  job.wait();  // nothing under way: returns
}

}  // namespace
}  // namespace bkt::radixsort::test
