// Global mutable state, and why it is here: a signal handler receives nothing but the signal
// number, so the temporaries it must remove have to be reachable from a global. The handler may
// only do async-signal-safe work, so the registry is prepared beforehand: blocks of fixed slots,
// each a state word and the path's bytes, linked by atomic pointers and never freed. The handler
// reads armed slots, unlink()s their paths, and re-raises the signal with its default action
// (SA_RESETHAND), so the process still dies by that signal.
//
// A process-directed signal goes to any thread that does not block it, so blocking the signals in
// the thread that creates a temporary is not enough once the process has other threads (a
// library's among them). Hence a slot is claimed *before* its file is created (temporary_guard),
// and a handler that meets a slot still being filled waits until it is armed or given back; the
// creating thread blocks the signals meanwhile, so the handler never waits on its own thread. The
// handler also raises `dying` before it looks, and a guard looks at `dying` after claiming its
// slot: either the handler sees the slot or the guard sees the flag and lets the process die
// first (both sequentially consistent), so no temporary is made behind the handler's back.
//
// Slots are claimed with a compare-and-swap, so threads may register at once without a lock.
// A handler racing a slot's reuse could read a path being rewritten; slots are reused first-fit
// only after being disarmed, and that window is a few instructions long while the process is
// dying anyway.
#include "signal_cleanup.hpp"

#include <limits.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>

namespace bkt::apps::detail {
namespace {

constexpr int handled_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
constexpr int slots_per_block = 64;

enum slot_state : int { slot_free = 0, slot_filling = 1, slot_armed = 2 };

struct slot {
  std::atomic<int> state{slot_free};
  char path[PATH_MAX];
};

struct block {
  slot slots[slots_per_block];
  std::atomic<block*> next{nullptr};
};

static_assert(std::atomic<int>::is_always_lock_free && std::atomic<block*>::is_always_lock_free,
              "the signal handler may only touch lock-free atomics");

std::atomic<block*> first_block{nullptr};
std::atomic<bool> dying{false};
static_assert(std::atomic<bool>::is_always_lock_free);

// A slot is filled for as long as mkstemp and a copy of the path take: microseconds. The waits
// are bounded (a second) so that a thread stopped mid-creation cannot hold the process alive.
constexpr int filling_waits = 1000;

void pause_briefly() noexcept {
  const timespec millisecond{0, 1'000'000};
  ::nanosleep(&millisecond, nullptr);  // async-signal-safe
}

extern "C" void remove_temporaries(int signal_number) {
  const int saved_errno = errno;
  dying.store(true);
  for (block* b = first_block.load(); b != nullptr; b = b->next.load())
    for (slot& s : b->slots) {
      int state = s.state.load();
      for (int waited = 0; state == slot_filling && waited < filling_waits; ++waited) {
        pause_briefly();
        state = s.state.load();
      }
      if (state == slot_armed) ::unlink(s.path);
    }
  // SA_RESETHAND restored the default action; the signal stays blocked until this returns, and
  // is then delivered again with that action.
  ::raise(signal_number);
  errno = saved_errno;
}

void install_handlers() {
  for (const int signal_number : handled_signals) {
    struct sigaction current {};
    if (::sigaction(signal_number, nullptr, &current) != 0) continue;
    // A signal the process ignores (nohup, a shell's background job) stays ignored, and a
    // handler someone else installed stays theirs.
    const bool default_action = (current.sa_flags & SA_SIGINFO) == 0 && current.sa_handler == SIG_DFL;
    if (!default_action) continue;
    struct sigaction action {};
    action.sa_handler = remove_temporaries;
    sigemptyset(&action.sa_mask);
    for (const int other : handled_signals) sigaddset(&action.sa_mask, other);  // one handler at a time
    action.sa_flags = SA_RESETHAND;
    ::sigaction(signal_number, &action, nullptr);
  }
}

slot& claim_slot(int& index) {
  index = 0;
  std::atomic<block*>* link = &first_block;
  for (;;) {
    block* b = link->load();
    if (b == nullptr) {
      // Never freed: the handler may be walking the list at any time. Of two threads adding a
      // block at once, one wins and the other's goes.
      auto* fresh = new block;
      if (link->compare_exchange_strong(b, fresh))
        b = fresh;
      else
        delete fresh;
    }
    for (slot& s : b->slots) {
      int expected = slot_free;
      if (s.state.compare_exchange_strong(expected, slot_filling)) return s;
      ++index;
    }
    link = &b->next;
  }
}

slot* slot_at(int index) {
  block* b = first_block.load();
  for (; b != nullptr && index >= slots_per_block; index -= slots_per_block) b = b->next.load();
  return b == nullptr ? nullptr : &b->slots[index];
}

}  // namespace

void forget_temporary(int index) noexcept {
  if (index < 0) return;
  if (slot* s = slot_at(index)) s->state.store(slot_free);
}

signals_blocked::signals_blocked() noexcept {
  sigset_t blocked;
  sigemptyset(&blocked);
  for (const int signal_number : handled_signals) sigaddset(&blocked, signal_number);
  ::pthread_sigmask(SIG_BLOCK, &blocked, &saved_);
}

signals_blocked::~signals_blocked() { ::pthread_sigmask(SIG_SETMASK, &saved_, nullptr); }

temporary_guard::temporary_guard() {
  static std::once_flag installed;
  std::call_once(installed, install_handlers);
  claim_slot(slot_);
  if (dying.load()) {
    // A handler under way on another thread may have passed this slot: give it back, and let the
    // process die before a temporary that handler would not see is made.
    slot_at(slot_)->state.store(slot_free);
    for (int waited = 0; waited < filling_waits; ++waited) pause_briefly();
    claim_slot(slot_);
  }
}

temporary_guard::~temporary_guard() {
  if (!armed_) slot_at(slot_)->state.store(slot_free);
}

int temporary_guard::arm(const std::string& path) noexcept {
  if (path.size() >= PATH_MAX) return -1;  // too long to create anyway (ENAMETOOLONG)
  slot& s = *slot_at(slot_);
  std::memcpy(s.path, path.c_str(), path.size() + 1);
  s.state.store(slot_armed);
  armed_ = true;
  return slot_;
}

}  // namespace bkt::apps::detail
