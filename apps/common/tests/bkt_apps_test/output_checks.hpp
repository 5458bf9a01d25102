// What every tool's output-atomicity tests check: a directory's files byte for byte before and
// after a failed run, no NAME.tmp.XXXXXX left behind, and a run killed by a signal mid-way.
// Header-only, part of bkt_apps_test_support (#include "bkt_apps_test/output_checks.hpp").
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <thread>
#include <vector>

namespace bkt::apps::test {

/// Every regular file directly in `directory`, by name, with its bytes.
inline std::map<std::string, std::string> directory_snapshot(const std::filesystem::path& directory) {
  std::map<std::string, std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(directory)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    files[entry.path().filename().string()] = {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  return files;
}

/// Names in `directory` (and its subdirectories) that look like an output's temporary.
inline std::vector<std::string> temporaries_in(const std::filesystem::path& directory) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(directory))
    if (entry.path().filename().string().find(".tmp.") != std::string::npos) names.push_back(entry.path().string());
  return names;
}

/// A named pipe that nobody writes to: a tool opening it as an input waits there, with every
/// output it created up front still a temporary.
inline bool make_fifo(const std::string& path) { return ::mkfifo(path.c_str(), 0600) == 0; }

/// How a run that was sent a signal ended.
struct signalled_run {
  bool temporaries_seen = false;  // the temporaries existed when the signal went
  bool killed_by_signal = false;
  int signal = 0;                 // the signal that ended it, when killed_by_signal
  int exit_code = -1;             // when it exited instead
};

/// Fills in how a process ended from waitpid's `status`.
inline void record_ending(int status, signalled_run& run) {
  run.killed_by_signal = WIFSIGNALED(status);
  run.signal = run.killed_by_signal ? WTERMSIG(status) : 0;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// Waits for the forked `child` to end (-1 as its exit code if waitpid fails).
inline signalled_run wait_for_ending(pid_t child) {
  signalled_run run;
  int status = 0;
  if (::waitpid(child, &status, 0) == child) record_ending(status, run);
  return run;
}

/// Starts `exe` with `args` (standard input /dev/null, standard output and error to /dev/null),
/// waits until `temporaries` temporaries exist under `watched` (at most 10 s), sends it each of
/// `signals` (50 ms apart) and waits for it to end. `ignored`, when not 0, is a signal the tool
/// starts with ignored, as nohup leaves SIGHUP.
inline signalled_run run_and_signal(const std::string& exe, const std::vector<std::string>& args,
                                    const std::filesystem::path& watched, std::size_t temporaries,
                                    std::vector<int> signals = {SIGTERM}, int ignored = 0) {
  const pid_t child = ::fork();
  if (child == 0) {
    // The tool starts as from an interactive shell: a test run as a background job (the GPU
    // check's shards, `ctest -j`) inherits SIGINT ignored, and the tool rightly keeps an ignored
    // signal ignored, so the signals the test sends must start with their default action.
    for (const int signal_number : signals) ::signal(signal_number, SIG_DFL);
    if (ignored != 0) ::signal(ignored, SIG_IGN);  // kept across exec
    const int null = ::open("/dev/null", O_RDWR);
    if (null < 0 || ::dup2(null, STDIN_FILENO) < 0 || ::dup2(null, STDOUT_FILENO) < 0 || ::dup2(null, STDERR_FILENO) < 0)
      ::_exit(126);
    std::vector<std::string> copies = args;
    std::vector<char*> argv{const_cast<char*>(exe.c_str())};
    for (auto& arg : copies) argv.push_back(arg.data());
    argv.push_back(nullptr);
    ::execv(exe.c_str(), argv.data());
    ::_exit(127);
  }
  signalled_run result;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  int status = 0;
  bool ended = false;
  while (std::chrono::steady_clock::now() < deadline) {
    if (temporaries_in(watched).size() >= temporaries) {
      result.temporaries_seen = true;
      break;
    }
    if (::waitpid(child, &status, WNOHANG) == child) {  // it ended on its own: a failed test
      ended = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  for (std::size_t i = 0; i < signals.size() && !ended; ++i) {
    if (i > 0) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ::kill(child, signals[i]);
    if (i + 1 < signals.size()) ended = ::waitpid(child, &status, WNOHANG) == child;
  }
  if (!ended) ::waitpid(child, &status, 0);
  record_ending(status, result);
  return result;
}

}  // namespace bkt::apps::test
