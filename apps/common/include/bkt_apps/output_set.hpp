// Every output of one run, shown together or not at all. A tool makes one output_set before its
// work and adds each output to it, which creates the output's temporary at once: an unwritable
// path fails before any compute. The tool writes (and may finish()) each output as its results
// come; commit_all() then renames them into place one after another: files in the order added,
// symbolic links to them (add_link), the JSON summary, then streams (a FIFO, a terminal),
// standard output last of all.
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
#include "bkt_apps/output_link.hpp"

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
  /// A symbolic link at `path` to the file output `target` of this set (by its name relative to
  /// the link's directory), created now as a temporary and shown by commit_all() after the files.
  /// An entry of that name is replaced, never followed; throws a usage error when PATH is an input
  /// or already an output, app_error when it cannot be created or `target` is a stream.
  output_link& add_link(const std::string& path, const output_file& target);

  /// The outputs added so far, links included.
  std::size_t size() const noexcept { return outputs_.size() + links_.size(); }

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
  void check_against_outputs(const std::string& path, const std::string& canonical_path, bool follow_links) const;

  std::vector<entry> outputs_;
  struct link_entry {
    std::unique_ptr<output_link> link;
    std::string canonical_path;  // the link's own place, its last component not followed
  };
  std::vector<link_entry> links_;
  std::vector<std::pair<dev_t, ino_t>> inputs_;
};

}  // namespace bkt::apps
