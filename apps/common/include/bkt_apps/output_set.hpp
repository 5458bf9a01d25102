// Every output of one run, shown together or not at all. A tool makes one output_set before its
// work and adds each output to it, which creates the output's temporary at once: an unwritable
// path fails before any compute. The tool writes (and may finish()) each output as its results
// come; commit_all() then renames them into place one after another: files in the order added,
// the JSON summary after them, then streams (a FIFO, a terminal), standard output last of all.
// A failure before commit_all() leaves nothing and changes no existing file; a signal removes
// the temporaries (output_file.hpp). Limits: the renames are one after another, so a rename that
// fails midway leaves those before it in place; and a signal delivered to another thread in the
// instant between a temporary's creation and its registration leaves that temporary behind (the
// creating thread blocks the signals, other threads cannot).
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bkt_apps/output_file.hpp"

namespace bkt::apps {

class output_set {
 public:
  output_set() = default;
  output_set(const output_set&) = delete;
  output_set& operator=(const output_set&) = delete;
  /// Outputs not committed yet remove their temporaries.
  ~output_set() = default;

  /// Marks `path` as an input of the run: an output that is the same file (same device and inode,
  /// through links too) is refused with a usage error. "-" and paths that do not exist are skipped.
  void protect_input(const std::string& path);

  /// Creates an output's temporary and returns it, valid as long as the set. Throws app_error
  /// "PATH: cannot create: REASON", or a usage error when PATH is an input or already an output.
  output_file& add(const std::string& path);
  /// The same for the run's JSON summary, which commit_all() shows after every other file.
  output_file& add_summary(const std::string& path);

  /// The outputs added so far.
  std::size_t size() const noexcept { return outputs_.size(); }

  /// Finishes every output (output_file::finish()) without showing any: a write error shows here.
  void finish_all();

  /// Finishes every output (a write error shows before anything is renamed), then shows them:
  /// files in the order added, the summary, streams, standard output last.
  void commit_all();

 private:
  struct entry {
    std::unique_ptr<output_file> file;
    bool summary = false;
    std::string canonical_path;  // empty for streams
  };
  output_file& add_output(const std::string& path, bool summary);
  void check_against_inputs(const std::string& path) const;

  std::vector<entry> outputs_;
  std::vector<std::pair<dev_t, ino_t>> inputs_;
};

}  // namespace bkt::apps
