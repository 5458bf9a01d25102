// Temporaries that SIGINT, SIGTERM, SIGHUP and SIGPIPE remove before the process dies, so that an
// interrupted run leaves no NAME.tmp.XXXXXX beside its outputs.
#pragma once

#include <csignal>
#include <string>

namespace bkt::apps::detail {

/// Records `path` for removal on a fatal signal (installing the handlers on first use, except for
/// a signal the process ignores); returns the slot to pass to forget_temporary.
int remember_temporary(const std::string& path);
/// Stops removing the temporary of `slot` (after it was renamed or removed); -1 does nothing.
void forget_temporary(int slot) noexcept;

/// Blocks the four signals in this thread while alive: a temporary is created and remembered, or
/// an unnamed file created and unlinked, with no signal in between.
class signals_blocked {
 public:
  signals_blocked() noexcept;
  ~signals_blocked();
  signals_blocked(const signals_blocked&) = delete;
  signals_blocked& operator=(const signals_blocked&) = delete;

 private:
  sigset_t saved_;
};

}  // namespace bkt::apps::detail
