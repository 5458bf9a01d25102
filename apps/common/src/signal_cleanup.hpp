// Temporaries that SIGINT, SIGTERM, SIGHUP and SIGPIPE remove before the process dies, so that an
// interrupted run leaves no NAME.tmp.XXXXXX beside its outputs, whichever of its threads the
// signal reaches.
#pragma once

#include <csignal>
#include <string>

namespace bkt::apps::detail {

/// Stops removing the temporary of `slot` (after it was renamed or removed); -1 does nothing.
void forget_temporary(int slot) noexcept;

/// Blocks the four signals in this thread while alive.
class signals_blocked {
 public:
  signals_blocked() noexcept;
  ~signals_blocked();
  signals_blocked(const signals_blocked&) = delete;
  signals_blocked& operator=(const signals_blocked&) = delete;

 private:
  sigset_t saved_;
};

/// Held while one temporary is created: the four signals blocked in this thread and a slot of the
/// handler's list claimed (installing the handlers on first use, except for a signal the process
/// ignores). A signal delivered meanwhile to another thread of the process waits in the handler
/// until the slot is armed or given back, so the temporary is removed whichever thread takes the
/// signal. Create the file, then arm() with its path; a guard destroyed unarmed gives the slot back.
class temporary_guard {
 public:
  temporary_guard();
  ~temporary_guard();
  temporary_guard(const temporary_guard&) = delete;
  temporary_guard& operator=(const temporary_guard&) = delete;

  /// The temporary exists at `path`: the handler removes it from now on. Returns the slot for
  /// forget_temporary, or -1 for a path too long to hold (no such file can be created).
  int arm(const std::string& path) noexcept;

 private:
  signals_blocked blocked_;
  int slot_ = -1;
  bool armed_ = false;
};

}  // namespace bkt::apps::detail
