// .npy input: a 1-D array, or one column of a 2-D C-order array, swapped to the machine's order.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "byte_swap.hpp"
#include "npy_header.hpp"
#include "source.hpp"

namespace bkt::apps::detail {
namespace {

class npy_source final : public chunk_reader::source {
 public:
  npy_source(std::unique_ptr<input_stream> stream, const input_options& options)
      : source(std::move(stream)), header_(read_npy_header(*stream_)) {
    if (options.type && *options.type != header_.type)
      throw app_error(name() + ": the array holds " + std::string(dtype_name(header_.type)) + ", not the " +
                      std::string(dtype_name(*options.type)) + " that --dtype asks for");
    element_bytes_ = dtype_size(header_.type);
    choose_column(options.column);
    const std::int64_t data_bytes = header_.num_items() * static_cast<std::int64_t>(element_bytes_);
    if (const auto file_bytes = stream_->file_size(); file_bytes && *file_bytes - header_.header_bytes < data_bytes)
      throw truncated(*file_bytes - header_.header_bytes);
    if (options.part.count > 1) {
      const element_range rows = part_of(rows_, options.part);
      const auto row_bytes = static_cast<std::int64_t>(columns_ * element_bytes_);
      const std::int64_t begin = header_.header_bytes + rows.first * row_bytes;
      stream_->seek_range(begin, begin + rows.count * row_bytes);
      first_ = rows.first;
      rows_ = rows.count;
    }
  }

  dtype type() const override { return header_.type; }
  file_format format() const override { return file_format::npy; }
  std::optional<std::int64_t> total_items() const override { return rows_; }
  std::optional<std::int64_t> first_item() const override { return first_; }

  std::int64_t read(void* out, std::int64_t max_items) override {
    const std::int64_t count = std::min(max_items, rows_ - items_read_);
    if (count <= 0) return 0;
    if (columns_ == 1) {
      read_exactly(out, static_cast<std::size_t>(count) * element_bytes_);
    } else {
      read_column(static_cast<std::byte*>(out), count);
    }
    if (needs_swap(header_.big_endian)) swap_bytes(out, count, element_bytes_);
    items_read_ += count;
    return count;
  }

 private:
  void choose_column(const std::optional<std::int64_t>& column) {
    const auto& shape = header_.shape;
    rows_ = shape.empty() ? 1 : shape[0];  // a 0-D array holds one element
    if (shape.size() == 2) {
      columns_ = shape[1];
      if (!column && columns_ != 1)
        throw usage_error(name() + ": a 2-D array (" + std::to_string(rows_) + " x " + std::to_string(columns_) +
                          "): choose a column with --column (1 to " + std::to_string(columns_) + ")");
      column_ = column.value_or(1) - 1;
      if (column_ < 0 || column_ >= columns_)
        throw usage_error(name() + ": --column " + std::to_string(column_ + 1) + " is outside the array's " +
                          std::to_string(columns_) + " columns");
      if (columns_ == 0) rows_ = 0;
    } else if (column && *column != 1) {
      throw usage_error(name() + ": a 1-D array has one column; --column " + std::to_string(*column) +
                        " does not apply");
    }
  }

  app_error truncated(std::int64_t data_bytes_present) const {
    return app_error(name() + ": truncated: the header promises " + std::to_string(header_.num_items()) + " " +
                     std::string(dtype_name(header_.type)) + " elements (" +
                     std::to_string(header_.num_items() * static_cast<std::int64_t>(element_bytes_)) +
                     " bytes), the file holds " + std::to_string(std::max<std::int64_t>(data_bytes_present, 0)) +
                     " bytes of data");
  }

  void read_exactly(void* out, std::size_t bytes) {
    const std::size_t got = stream_->read(out, bytes);
    if (got != bytes) throw truncated(stream_->position() - header_.header_bytes);
  }

  /// Reads whole rows through a bounded scratch buffer and keeps one field of each.
  void read_column(std::byte* out, std::int64_t count) {
    const std::size_t row_bytes = static_cast<std::size_t>(columns_) * element_bytes_;
    const std::int64_t rows_per_read =
        std::max<std::int64_t>(1, (std::int64_t{1} << 22) / static_cast<std::int64_t>(row_bytes));
    for (std::int64_t done = 0; done < count;) {
      const std::int64_t rows = std::min(rows_per_read, count - done);
      rows_buffer_.resize(static_cast<std::size_t>(rows) * row_bytes);
      read_exactly(rows_buffer_.data(), rows_buffer_.size());
      const std::byte* field = rows_buffer_.data() + static_cast<std::size_t>(column_) * element_bytes_;
      for (std::int64_t r = 0; r < rows; ++r, field += row_bytes, out += element_bytes_)
        std::memcpy(out, field, element_bytes_);
      done += rows;
    }
  }

  npy_header header_;
  std::size_t element_bytes_ = 0;
  std::int64_t rows_ = 0;
  std::int64_t columns_ = 1;
  std::int64_t column_ = 0;  // 0-based here
  std::int64_t first_ = 0;   // the part's first row
  std::vector<std::byte> rows_buffer_;
};

}  // namespace

std::unique_ptr<chunk_reader::source> make_npy_source(std::unique_ptr<input_stream> stream,
                                                      const input_options& options) {
  return std::make_unique<npy_source>(std::move(stream), options);
}

}  // namespace bkt::apps::detail
