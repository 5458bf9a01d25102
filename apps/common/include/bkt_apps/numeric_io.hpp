// Reading and writing one column of numbers in the three formats the tools share:
//   raw   bare elements, no header; the dtype and byte order come from the command line
//   npy   NumPy .npy v1/v2/v3: a 1-D array, or one column of a 2-D C-order array
//   text  one number per line, or one field (--column) of comma- or whitespace-separated lines;
//         blank lines and lines starting with '#' are skipped; anything else must parse; integers
//         are read exactly (without --dtype, integer columns are read as i64 or u64)
// Every failure throws bkt::apps::app_error with a message "FILE: problem" (text: "FILE:LINE:
// problem", 1-based line numbers) and exit code 1. Standard input and output are named "-" (or an
// empty path) and show as "<stdin>" / "<stdout>" in messages.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bkt_apps/app_error.hpp"
#include "bkt_apps/dtype.hpp"

namespace bkt::apps {

enum class file_format { raw, npy, text };
enum class byte_order { little, big };

/// "raw", "npy" or "text" (also "txt", "csv", "tsv" for text); nullopt otherwise.
std::optional<file_format> parse_file_format(std::string_view name);
std::string_view file_format_name(file_format format);
/// "little"/"le" or "big"/"be"; nullopt otherwise.
std::optional<byte_order> parse_byte_order(std::string_view name);
std::string_view byte_order_name(byte_order order);

/// True for "" and "-": standard input or output.
bool is_standard_stream(std::string_view path);
/// The format a file name implies: .npy -> npy; .txt, .csv, .tsv -> text; nullopt otherwise.
std::optional<file_format> format_from_extension(std::string_view path);

/// One of `count` parts of a file, read by one of several ranks (mpirun): raw and npy inputs are
/// cut into runs of elements (part i holds elements [n i / count, n (i + 1) / count)), text into
/// byte ranges that begin at line starts, so that every line lands in exactly one part. Standard
/// input and pipes cannot be cut.
struct input_part {
  int index = 0;
  int count = 1;
};

/// Where and how to read one column of numbers.
struct input_options {
  std::string path;                       // "-" or empty: standard input
  std::optional<file_format> format;      // nullopt: from the extension, else raw; on standard input:
                                          // npy when it starts with the npy magic, else text
  std::optional<dtype> type;              // raw: required; npy: the file's, and an error when this
                                          // is set and differs; text: when unset, the values choose:
                                          // i64 when every one is an integer (digits, optional sign)
                                          // within i64, u64 when one exceeds i64 and none is
                                          // negative, else f64. A file is read once more for that;
                                          // a stream is judged by its first 4 MiB, and a later
                                          // value that does not fit is an error naming the dtype
                                          // to give
  byte_order order = byte_order::little;  // raw only (npy says its own)
  std::optional<std::int64_t> column;     // 1-based; text: the field of each line; npy: the column
                                          // of a 2-D array (arr[:, column-1]); 1 is allowed for 1-D
  bool skip_header = false;               // text: ignore the file's first line
  char delimiter = 0;                     // text: ',' or ' ' (spaces and tabs); 0: ',' when the
                                          // first data line holds one, else ' '
  input_part part;                        // the whole input by default; a text part keeps the
                                          // whole file's dtype choice, delimiter, header line and
                                          // line numbers
};

/// Where and how to write one column of numbers.
struct output_options {
  std::string path;                       // "-" or empty: standard output
  std::optional<file_format> format;      // nullopt: see resolve_output_format
  byte_order order = byte_order::little;  // raw only; npy is written in the machine's order
};

/// The format an output takes: options.format when set, else the output file's extension when it
/// names one (.npy, .txt, .csv, .tsv), else `input_format`.
file_format resolve_output_format(const output_options& options, file_format input_format);

/// A 1-D array of one dtype, elements in the machine's byte order.
class numeric_array {
 public:
  numeric_array() = default;
  /// `size` elements, zeroed.
  numeric_array(dtype type, std::int64_t size);
  template <class T>
  static numeric_array copy_of(std::span<const T> values) {
    numeric_array array(dtype_of<T>(), static_cast<std::int64_t>(values.size()));
    if (!values.empty()) std::memcpy(array.data(), values.data(), values.size_bytes());
    return array;
  }

  dtype type() const noexcept { return type_; }
  std::int64_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  std::size_t size_bytes() const noexcept { return bytes_.size(); }
  std::byte* data() noexcept { return bytes_.data(); }
  const std::byte* data() const noexcept { return bytes_.data(); }
  /// Keeps the first `size` elements, or appends zeros.
  void resize(std::int64_t size);

  /// The elements as T; throws std::logic_error when T is not the array's dtype.
  template <class T>
  std::span<T> as() {
    check_type(dtype_of<T>());
    return {reinterpret_cast<T*>(bytes_.data()), static_cast<std::size_t>(size_)};
  }
  template <class T>
  std::span<const T> as() const {
    check_type(dtype_of<T>());
    return {reinterpret_cast<const T*>(bytes_.data()), static_cast<std::size_t>(size_)};
  }

 private:
  void check_type(dtype wanted) const;
  dtype type_ = dtype::f64;
  std::int64_t size_ = 0;
  std::vector<std::byte> bytes_;  // operator new aligns it for every dtype
};

/// Reads an input in chunks, so that files larger than memory stream through. The constructor
/// opens the input and reads its header; every method throws app_error on bad data or I/O.
class chunk_reader {
 public:
  explicit chunk_reader(const input_options& options);
  chunk_reader(chunk_reader&&) noexcept;
  chunk_reader& operator=(chunk_reader&&) noexcept;
  ~chunk_reader();

  dtype type() const;
  /// True when the values chose type(): text read without --dtype (see input_options::type).
  bool type_inferred() const;
  file_format format() const;
  /// The path as given, or "<stdin>".
  const std::string& name() const;
  /// The number of elements, when the header or the file's size tells it before reading (npy; raw
  /// regular files); nullopt for text and for raw standard input.
  std::optional<std::int64_t> total_items() const;
  /// Elements returned so far.
  std::int64_t items_read() const;
  /// Where this part's first element is in the whole input: known for raw and npy (0 for the
  /// whole input), nullopt for a text part after the first.
  std::optional<std::int64_t> first_item() const;

  /// Up to max_items more elements, fewer only at the end of the input; empty at the end.
  numeric_array next(std::int64_t max_items);
  /// Reads up to `max_items` elements of type() into `out`, in the machine's byte order; returns
  /// how many, 0 at the end of the input.
  std::int64_t read_into(void* out, std::int64_t max_items);
  template <class T>
  std::int64_t read_into(std::span<T> out) {
    check_type(dtype_of<T>());
    return read_into(static_cast<void*>(out.data()), static_cast<std::int64_t>(out.size()));
  }

  class source;  // one per format (numeric_io_*.cpp)

 private:
  void check_type(dtype wanted) const;
  std::unique_ptr<source> source_;
};

/// The whole input at once.
numeric_array read_array(const input_options& options);

class output_file;

/// Writes elements of one dtype in one format, to a temporary file beside the output that
/// finish() renames into place (standard output gets the bytes at finish()). Destroyed without
/// finish(), it removes the temporary, so a failed run leaves no output behind.
class array_writer {
 public:
  /// expected_items: the element count when known. npy needs it in its header: without it the
  /// header is patched at finish() (held in memory until then for a device such as /dev/null).
  array_writer(const output_options& options, file_format format, dtype type,
               std::optional<std::int64_t> expected_items = std::nullopt);
  /// Writes into `file`, an output of the caller's output_set: finish() completes its bytes and
  /// the set's commit_all() shows it. `order`: the byte order of raw output.
  array_writer(output_file& file, byte_order order, file_format format, dtype type,
               std::optional<std::int64_t> expected_items = std::nullopt);
  array_writer(array_writer&&) noexcept;
  array_writer& operator=(array_writer&&) noexcept;
  ~array_writer();

  dtype type() const;
  file_format format() const;
  /// The path as given, or "<stdout>".
  const std::string& name() const;
  std::int64_t items_written() const;

  /// Appends `count` elements of type(), in the machine's byte order.
  void write(const void* data, std::int64_t count);
  void write(const numeric_array& values);
  template <class T>
  void write(std::span<const T> values) {
    check_type(dtype_of<T>());
    write(static_cast<const void*>(values.data()), static_cast<std::int64_t>(values.size()));
  }
  /// Completes the output: flushes, writes the npy header, renames the temporary into place (only
  /// finishes the bytes of an output_set's file).
  /// Throws app_error when expected_items was given and a different count was written.
  void finish();

  class sink;  // one per format (numeric_io_*.cpp)

 private:
  void check_type(dtype wanted) const;
  std::unique_ptr<sink> sink_;
};

/// Writes a whole array and finishes.
void write_array(const output_options& options, file_format format, const numeric_array& values);

}  // namespace bkt::apps
