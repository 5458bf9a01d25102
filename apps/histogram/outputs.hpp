// Where the results go: the table (or --bars chart) on standard output or -o, JSON on --json, the
// chart on --plot. They are outputs of one bkt::apps::output_set: each is first a temporary beside
// its final name, created before the run so that an unwritable path fails at once, and all are
// shown only when every one is written (files first, JSON after them, standard output last).
#pragma once

#include "bkt_apps/output_set.hpp"
#include "histogram_result.hpp"
#include "options.hpp"

namespace bkt::apps::histogram {

class histogram_outputs {
 public:
  /// Creates the temporaries (app_error "PATH: cannot create: ..." when a path is unwritable; a
  /// usage error when an output is one of the inputs).
  explicit histogram_outputs(const options& opts);

  /// Renders and writes every output; the caller commits them (rank_context::commit_together).
  void write(const histogram_result& result);
  output_set& files() { return outputs_; }

 private:
  const options& opts_;
  output_set outputs_;
  output_file* text_ = nullptr;  // the table or bars; none when --json - takes standard output
  output_file* json_ = nullptr;
  output_file* plot_ = nullptr;
};

}  // namespace bkt::apps::histogram
