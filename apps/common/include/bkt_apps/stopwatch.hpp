// Wall-clock time of a tool's phases (the steady clock), for the summaries and --verbose.
#pragma once

#include <chrono>

namespace bkt::apps {

class stopwatch {
 public:
  stopwatch() : start_(clock::now()) {}
  /// Seconds since it was made or last restarted.
  double seconds() const { return std::chrono::duration<double>(clock::now() - start_).count(); }
  void restart() { start_ = clock::now(); }

 private:
  using clock = std::chrono::steady_clock;
  clock::time_point start_;
};

}  // namespace bkt::apps
