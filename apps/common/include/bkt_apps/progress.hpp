// A progress bar on stderr, drawn only when stderr is a terminal and the run has lasted a while,
// so that pipes, logs and quick runs stay clean.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace bkt::apps {

class progress_bar {
 public:
  /// `total` units of work (0: unknown, shows a count); `label` names the phase ("sort", "merge").
  progress_bar(std::string label, std::int64_t total);
  progress_bar(const progress_bar&) = delete;
  progress_bar& operator=(const progress_bar&) = delete;
  /// Clears the bar's line if one was drawn.
  ~progress_bar();

  /// Records `done` units; redraws at most a few times a second, and only after the first second.
  void update(std::int64_t done);
  /// Starts a new phase on the same line.
  void relabel(std::string label, std::int64_t total);

 private:
  void clear() noexcept;

  std::string label_;
  std::int64_t total_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
};

}  // namespace bkt::apps
