// Text dtype inference: the data lines' fields, fed to column_dtype in order.
#include "text_dtype.hpp"

#include <cstring>
#include <string_view>
#include <vector>

#include "text_fields.hpp"

namespace bkt::apps::detail {
namespace {

/// Feeds lines to a column_dtype until it can only say f64.
class column_scan {
 public:
  explicit column_scan(const input_options& options)
      : lines_(options.column, options.delimiter, options.skip_header) {}

  /// False once the answer is f64 whatever follows.
  bool line(std::string_view line) {
    const text_lines::data data = lines_.next(line);
    if (!data.is_data) return true;
    // A malformed line makes the reader fail on it whatever the dtype; f64 lets it say why.
    return result_.column.add(data.well_formed ? data.lookup.field : std::string_view());
  }

  /// Every complete line of `text`; returns how many bytes they took, and in `stopped` whether
  /// the answer is settled.
  std::size_t lines_of(std::string_view text, bool& stopped) {
    std::size_t at = 0;
    while (at < text.size()) {
      const void* newline = std::memchr(text.data() + at, '\n', text.size() - at);
      if (newline == nullptr) break;
      const std::size_t end = static_cast<std::size_t>(static_cast<const char*>(newline) - text.data());
      if (!line(text.substr(at, end - at))) {
        stopped = true;
        return end + 1;
      }
      at = end + 1;
    }
    return at;
  }

  inferred_dtype& result() { return result_; }

 private:
  text_lines lines_;
  inferred_dtype result_;
};

}  // namespace

inferred_dtype infer_text_dtype_of_file(const std::string& path, const input_options& options) {
  input_stream file(path);
  column_scan scan(options);
  std::vector<char> block(std::size_t{4} << 20);
  std::size_t kept = 0;  // an incomplete line carried to the front of the block
  for (;;) {
    if (kept == block.size()) block.resize(2 * block.size());  // one line longer than the block
    const std::size_t got = file.read(block.data() + kept, block.size() - kept);
    const std::size_t filled = kept + got;
    if (got == 0) {  // the end: a last line without '\n' still counts
      if (kept > 0) scan.line(std::string_view(block.data(), kept));
      break;
    }
    bool stopped = false;
    const std::size_t used = scan.lines_of(std::string_view(block.data(), filled), stopped);
    if (stopped) break;
    kept = filled - used;
    std::memmove(block.data(), block.data() + used, kept);
  }
  return scan.result();
}

inferred_dtype infer_text_dtype_of_stream(input_stream& stream, const input_options& options) {
  const std::string_view start = stream.peek(stream_look_ahead_bytes);
  column_scan scan(options);
  bool stopped = false;
  const std::size_t used = scan.lines_of(start, stopped);
  const bool ended = start.size() < stream_look_ahead_bytes;
  if (!stopped && ended && used < start.size()) scan.line(start.substr(used));  // the last line, without '\n'
  scan.result().settled = stopped || ended;  // f64 is final; otherwise only the whole input settles it
  return scan.result();
}

}  // namespace bkt::apps::detail
