// Where the results go: the table (or --bars chart) on standard output or -o, JSON on --json, the
// SVG on --plot. Every file is first a temporary beside its final name, created before the run so
// that an unwritable path fails at once; all are renamed into place only when every one is written.
#pragma once

#include <optional>

#include "bkt_apps/output_file.hpp"
#include "histogram_result.hpp"
#include "options.hpp"

namespace bkt::apps::histogram {

class output_set {
 public:
  /// Creates the temporaries (app_error "PATH: cannot create: ..." when a path is unwritable).
  explicit output_set(const options& opts);

  /// Renders and writes every output, then commits them: files first, standard output last.
  void write(const histogram_result& result);

 private:
  const options& opts_;
  std::optional<output_file> text_;  // the table or bars; absent when --json - takes standard output
  std::optional<output_file> json_;
  std::optional<output_file> plot_;
};

}  // namespace bkt::apps::histogram
