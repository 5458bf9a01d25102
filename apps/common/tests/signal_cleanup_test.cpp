// signal_cleanup: a fatal signal removes the temporaries, also when a thread other than the one
// creating a temporary takes the signal while the file exists but is not yet armed.
#include "signal_cleanup.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <string>
#include <thread>

#include "bkt_apps_test/output_checks.hpp"
#include "bkt_apps_test/temp_dir.hpp"

namespace bkt::apps {
namespace {

using signal_cleanup_test = test::temp_dir_test;

TEST_F(signal_cleanup_test, a_signal_another_thread_takes_mid_creation_removes_the_temporary) {
  const pid_t child = ::fork();
  if (child == 0) {
    // A thread that blocks nothing, as a library's thread may be: a process-directed signal
    // that the creating thread blocks goes to it.
    std::thread idle([] {
      for (;;) ::pause();
    });
    idle.detach();
    {
      detail::temporary_guard guard;
      std::string pattern = path("out.txt") + ".tmp.XXXXXX";
      const int fd = ::mkstemp(pattern.data());
      if (fd < 0) ::_exit(3);
      ::close(fd);
      ::kill(::getpid(), SIGTERM);  // the idle thread's handler must wait for the slot
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      guard.arm(pattern);
    }
    std::this_thread::sleep_for(std::chrono::seconds(5));
    ::_exit(4);  // not reached: the signal ends the process
  }
  const test::signalled_run run = test::wait_for_ending(child);
  ASSERT_TRUE(run.killed_by_signal) << "exit code " << run.exit_code;
  EXPECT_EQ(run.signal, SIGTERM);
  EXPECT_TRUE(test::temporaries_in(dir_).empty());
}

}  // namespace
}  // namespace bkt::apps
