// chunk_reader: picks the input's format and forwards to that format's source.
#include <stdexcept>
#include <string>

#include "npy_header.hpp"
#include "source.hpp"

namespace bkt::apps {
namespace {

/// The format named on the command line, else the file's extension, else what the first bytes say:
/// the npy magic means npy; otherwise raw for files and text for standard input (a pipe of text
/// is the common case there, and raw needs --dtype anyway).
file_format choose_format(const input_options& options, detail::input_stream& stream) {
  if (options.format) return *options.format;
  const bool standard_input = is_standard_stream(options.path);
  if (!standard_input)
    if (const auto implied = format_from_extension(options.path)) return *implied;
  if (stream.peek(detail::npy_magic.size()) == detail::npy_magic) return file_format::npy;
  return standard_input ? file_format::text : file_format::raw;
}

}  // namespace

namespace detail {

std::int64_t part_boundary(std::int64_t total, int index, int count) {
  // floor(total * index / count) without the product, which could overflow.
  return total / count * index + total % count * index / count;
}

element_range part_of(std::int64_t total, const input_part& part) {
  const std::int64_t first = part_boundary(total, part.index, part.count);
  return {first, part_boundary(total, part.index + 1, part.count) - first};
}

void check_part(const input_stream& stream, const input_part& part) {
  if (part.count < 1 || part.index < 0 || part.index >= part.count)
    throw std::logic_error("input part " + std::to_string(part.index) + " of " + std::to_string(part.count));
  if (part.count > 1 && !stream.file_size())
    throw usage_error(stream.name() + ": several ranks read a file each its own part; standard input or a pipe "
                      "cannot be cut: give a file");
}

}  // namespace detail

chunk_reader::chunk_reader(const input_options& options) {
  auto stream = std::make_unique<detail::input_stream>(options.path);
  detail::check_part(*stream, options.part);
  switch (choose_format(options, *stream)) {
    case file_format::raw:
      source_ = detail::make_raw_source(std::move(stream), options);
      break;
    case file_format::npy:
      source_ = detail::make_npy_source(std::move(stream), options);
      break;
    case file_format::text:
      source_ = detail::make_text_source(std::move(stream), options);
      break;
  }
}

chunk_reader::chunk_reader(chunk_reader&&) noexcept = default;
chunk_reader& chunk_reader::operator=(chunk_reader&&) noexcept = default;
chunk_reader::~chunk_reader() = default;

dtype chunk_reader::type() const { return source_->type(); }
bool chunk_reader::type_inferred() const { return source_->type_inferred(); }
file_format chunk_reader::format() const { return source_->format(); }
const std::string& chunk_reader::name() const { return source_->name(); }
std::optional<std::int64_t> chunk_reader::total_items() const { return source_->total_items(); }
std::int64_t chunk_reader::items_read() const { return source_->items_read(); }
std::optional<std::int64_t> chunk_reader::first_item() const { return source_->first_item(); }

std::int64_t chunk_reader::read_into(void* out, std::int64_t max_items) {
  if (max_items <= 0) return 0;
  return source_->read(out, max_items);
}

numeric_array chunk_reader::next(std::int64_t max_items) {
  numeric_array chunk(type(), std::max<std::int64_t>(max_items, 0));
  chunk.resize(read_into(chunk.data(), max_items));
  return chunk;
}

void chunk_reader::check_type(dtype wanted) const {
  if (wanted != type())
    throw std::logic_error(name() + " holds " + std::string(dtype_name(type())) + ", not " +
                           std::string(dtype_name(wanted)));
}

numeric_array read_array(const input_options& options) {
  chunk_reader reader(options);
  if (const auto total = reader.total_items()) {
    numeric_array all(reader.type(), *total);
    const std::int64_t got = reader.read_into(all.data(), *total);
    all.resize(got);
    return all;
  }
  // Unknown length: grow geometrically, reading straight into the array's tail.
  numeric_array all(reader.type(), 0);
  std::int64_t capacity = 1 << 16;
  for (;;) {
    const std::int64_t used = all.size();
    all.resize(capacity);
    const std::int64_t got =
        reader.read_into(all.data() + static_cast<std::size_t>(used) * dtype_size(all.type()), capacity - used);
    all.resize(used + got);
    if (got == 0) return all;
    if (all.size() == capacity) capacity *= 2;
  }
}

}  // namespace bkt::apps
