// The dtype of a text column read without --dtype: i64, u64 or f64, whichever reads every value
// exactly (column_dtype in text_number.hpp says how). A file is read once more for it; a stream,
// which cannot be read twice, is judged by the lines in its first bytes.
#pragma once

#include <cstddef>
#include <string>

#include "bkt_apps/numeric_io.hpp"
#include "input_stream.hpp"
#include "text_number.hpp"

namespace bkt::apps::detail {

/// How much of a stream the inference looks at: enough lines for any table a person pipes in.
inline constexpr std::size_t stream_look_ahead_bytes = std::size_t{4} << 20;

struct inferred_dtype {
  column_dtype column;      // the fields seen; column.type() is the dtype
  bool settled = true;  // false: a stream longer than the look-ahead, judged by its start
};

/// Reads the regular file `path` to its end (or to the first field only f64 reads).
inferred_dtype infer_text_dtype_of_file(const std::string& path, const input_options& options);

/// Peeks at the first stream_look_ahead_bytes of `stream`, consuming nothing.
inferred_dtype infer_text_dtype_of_stream(input_stream& stream, const input_options& options);

}  // namespace bkt::apps::detail
