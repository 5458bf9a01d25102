// array_writer: one sink per format over an output_file.
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bkt_apps/numeric_io.hpp"
#include "bkt_apps/output_file.hpp"
#include "byte_swap.hpp"
#include "npy_header.hpp"
#include "text_number.hpp"

namespace bkt::apps {

class array_writer::sink {
 public:
  /// `owned` set: the writer made the file and commits it; else it writes into an output of the
  /// caller's output_set and only finishes it.
  sink(output_file& file, std::unique_ptr<output_file> owned, dtype type, std::optional<std::int64_t> expected)
      : owned_(std::move(owned)), file_(file), type_(type), expected_(expected) {}
  virtual ~sink() = default;

  virtual void write(const void* data, std::int64_t count) = 0;
  virtual void finish() {
    if (expected_ && *expected_ != written_)
      throw app_error(file_.name() + ": wrote " + std::to_string(written_) + " elements where " +
                      std::to_string(*expected_) + " were announced");
    if (owned_)
      file_.commit();
    else
      file_.finish();
  }

  dtype type() const { return type_; }
  virtual file_format format() const = 0;
  const std::string& name() const { return file_.name(); }
  std::int64_t written() const { return written_; }

 protected:
  std::unique_ptr<output_file> owned_;
  output_file& file_;
  dtype type_;
  std::optional<std::int64_t> expected_;
  std::int64_t written_ = 0;
};

namespace {

class raw_sink final : public array_writer::sink {
 public:
  raw_sink(output_file& file, std::unique_ptr<output_file> owned, byte_order order, dtype type,
           std::optional<std::int64_t> expected)
      : sink(file, std::move(owned), type, expected), swap_(detail::needs_swap(order == byte_order::big)) {}
  file_format format() const override { return file_format::raw; }
  void write(const void* data, std::int64_t count) override {
    const std::size_t bytes = static_cast<std::size_t>(count) * dtype_size(type_);
    if (swap_) {
      swapped_.assign(static_cast<const std::byte*>(data), static_cast<const std::byte*>(data) + bytes);
      detail::swap_bytes(swapped_.data(), count, dtype_size(type_));
      data = swapped_.data();
    }
    file_.write(data, bytes);
    written_ += count;
  }

 private:
  bool swap_;
  std::vector<std::byte> swapped_;
};

class npy_sink final : public array_writer::sink {
 public:
  npy_sink(output_file& file, std::unique_ptr<output_file> owned, byte_order, dtype type,
           std::optional<std::int64_t> expected)
      : sink(file, std::move(owned), type, expected) {
    if (expected_) {
      file_.write(detail::format_npy_header(type_, *expected_));
    } else if (file_.seekable()) {
      // The count is not known yet: leave room for the largest one and rewrite the header at the end.
      placeholder_bytes_ = detail::format_npy_header(type_, INT64_MAX).size();
      file_.write(std::string(placeholder_bytes_, ' '));
    } else {
      hold_ = true;  // a stream cannot be rewound: hold the data until the count is known
    }
  }
  file_format format() const override { return file_format::npy; }
  void write(const void* data, std::int64_t count) override {
    const std::size_t bytes = static_cast<std::size_t>(count) * dtype_size(type_);
    if (hold_) {
      held_.insert(held_.end(), static_cast<const std::byte*>(data), static_cast<const std::byte*>(data) + bytes);
    } else {
      file_.write(data, bytes);
    }
    written_ += count;
  }
  void finish() override {
    if (placeholder_bytes_ > 0) {
      const std::string header = detail::format_npy_header(type_, written_, placeholder_bytes_);
      file_.overwrite(0, header.data(), header.size());
    } else if (hold_) {
      file_.write(detail::format_npy_header(type_, written_));
      file_.write(held_.data(), held_.size());
    }
    sink::finish();
  }

 private:
  std::size_t placeholder_bytes_ = 0;
  bool hold_ = false;
  std::vector<std::byte> held_;
};

class text_sink final : public array_writer::sink {
 public:
  text_sink(output_file& file, std::unique_ptr<output_file> owned, byte_order, dtype type,
            std::optional<std::int64_t> expected)
      : sink(file, std::move(owned), type, expected) {}
  file_format format() const override { return file_format::text; }
  void write(const void* data, std::int64_t count) override {
    const auto* bytes = static_cast<const std::byte*>(data);
    const std::size_t element_bytes = dtype_size(type_);
    for (std::int64_t i = 0; i < count; ++i, bytes += element_bytes) {
      detail::append_number(text_, bytes, type_);
      text_.push_back('\n');
      if (text_.size() >= (1u << 16)) {
        file_.write(text_);
        text_.clear();
      }
    }
    written_ += count;
  }
  void finish() override {
    file_.write(text_);
    text_.clear();
    sink::finish();
  }

 private:
  std::string text_;
};

}  // namespace

namespace {

std::unique_ptr<array_writer::sink> make_sink(output_file& file, std::unique_ptr<output_file> owned, file_format format,
                                              byte_order order, dtype type, std::optional<std::int64_t> expected) {
  switch (format) {
    case file_format::raw:
      return std::make_unique<raw_sink>(file, std::move(owned), order, type, expected);
    case file_format::npy:
      return std::make_unique<npy_sink>(file, std::move(owned), order, type, expected);
    case file_format::text:
      break;
  }
  return std::make_unique<text_sink>(file, std::move(owned), order, type, expected);
}

}  // namespace

array_writer::array_writer(const output_options& options, file_format format, dtype type,
                           std::optional<std::int64_t> expected_items) {
  auto owned = std::make_unique<output_file>(options.path);
  output_file& file = *owned;
  sink_ = make_sink(file, std::move(owned), format, options.order, type, expected_items);
}

array_writer::array_writer(output_file& file, byte_order order, file_format format, dtype type,
                           std::optional<std::int64_t> expected_items)
    : sink_(make_sink(file, nullptr, format, order, type, expected_items)) {}

array_writer::array_writer(array_writer&&) noexcept = default;
array_writer& array_writer::operator=(array_writer&&) noexcept = default;
array_writer::~array_writer() = default;

dtype array_writer::type() const { return sink_->type(); }
file_format array_writer::format() const { return sink_->format(); }
const std::string& array_writer::name() const { return sink_->name(); }
std::int64_t array_writer::items_written() const { return sink_->written(); }

void array_writer::write(const void* data, std::int64_t count) {
  if (count > 0) sink_->write(data, count);
}

void array_writer::write(const numeric_array& values) {
  check_type(values.type());
  write(values.data(), values.size());
}

void array_writer::finish() { sink_->finish(); }

void array_writer::check_type(dtype wanted) const {
  if (wanted != type())
    throw std::logic_error(name() + ": writing " + std::string(dtype_name(wanted)) + " to a " +
                           std::string(dtype_name(type())) + " output");
}

void write_array(const output_options& options, file_format format, const numeric_array& values) {
  array_writer writer(options, format, values.type(), values.size());
  writer.write(values);
  writer.finish();
}

}  // namespace bkt::apps
