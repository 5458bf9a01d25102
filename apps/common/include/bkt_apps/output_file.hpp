// An output that appears whole or not at all. A file's bytes go to NAME.tmp.XXXXXX beside NAME
// (mkstemp), which commit() renames into place; destroyed uncommitted, or when the process gets
// SIGINT, SIGTERM, SIGHUP or SIGPIPE, it removes the temporary. A symbolic link to a file keeps
// the link and gets the file it points to replaced.
// Standard output ("-" or an empty path), a FIFO or a terminal is a stream: its bytes are held
// (in memory, then in an unnamed file under $TMPDIR) and copied there only by commit(). A device
// that is not a terminal (/dev/null) is written as the bytes come: there is nothing to protect.
// A run with several outputs makes them through bkt::apps::output_set (output_set.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bkt::apps {

class output_file {
 public:
  /// Creates the temporary; throws app_error "PATH: cannot create: REASON" (or "PATH: is a
  /// directory"). It is reopened on the first write, so that a run can hold many unwritten ones.
  explicit output_file(const std::string& path);
  output_file(output_file&& other) noexcept;
  output_file& operator=(output_file&& other) noexcept;
  output_file(const output_file&) = delete;
  output_file& operator=(const output_file&) = delete;
  ~output_file();

  /// The path as given, or "<stdout>".
  const std::string& name() const noexcept { return name_; }
  bool is_standard_output() const noexcept { return standard_output_; }
  /// Standard output, a device, a FIFO: written (or copied) at the end of a run, never renamed.
  bool is_stream() const noexcept { return kind_ != kind::file; }
  /// True when earlier bytes can be rewritten: all but a device written as the bytes come.
  bool seekable() const noexcept { return kind_ != kind::direct_stream; }
  /// A file's temporary until it is committed or removed (other ranks write into it:
  /// bkt_apps/array_part.hpp); empty for a stream.
  const std::string& temporary_path() const noexcept { return temporary_; }
  /// Bytes written so far.
  std::int64_t offset() const noexcept { return offset_; }

  /// Appends bytes (buffered); throws app_error "PATH: write failed: REASON".
  void write(const void* data, std::size_t bytes);
  void write(std::string_view text) { write(text.data(), text.size()); }
  /// Overwrites bytes already written at `offset`; only when seekable().
  void overwrite(std::int64_t offset, const void* data, std::size_t bytes);
  /// Completes the bytes without showing them: flushes, gives a file the usual 0666 & ~umask
  /// permissions and closes it. Any write error shows here. Writing afterwards is a logic error.
  void finish();
  /// finish(), then shows the output: renames the temporary into place, or copies the held bytes
  /// to the stream.
  void commit();

 private:
  enum class kind { file, held_stream, direct_stream };

  void open_destination();
  void flush();
  void write_through(const char* data, std::size_t bytes);
  void discard() noexcept;

  std::string path_;       // the final name (a symbolic link's target)
  std::string name_;       // for messages
  std::string temporary_;  // a file's temporary; empty once committed or removed
  kind kind_ = kind::file;
  int fd_ = -1;            // where flushed bytes go: the temporary, the held bytes' file, a device
  int stream_fd_ = -1;     // a held stream's destination once open (standard output, a terminal)
  int cleanup_slot_ = -1;  // the temporary's place in the signal handler's list
  bool standard_output_ = false;
  bool finished_ = false;
  bool committed_ = false;
  std::int64_t offset_ = 0;
  std::int64_t flushed_ = 0;  // bytes already in fd_
  std::vector<char> buffer_;
};

/// Writes `text` to `path` ("-": standard output) through an output_file.
void write_text_file(const std::string& path, std::string_view text);

/// An unnamed file in `directory` for scratch data (O_TMPFILE, else mkstemp and unlink with the
/// signals blocked in between): it vanishes with the process however the run ends. Returns the
/// descriptor, or -1 with errno set.
int create_unnamed_file(const std::string& directory);

/// $TMPDIR, or /tmp when it is unset or empty.
std::string temporary_directory();

}  // namespace bkt::apps
