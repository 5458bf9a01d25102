// array_part_writer: pwrite(2) at each rank's offset of the one shared file.
#include "bkt_apps/array_part.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "bkt_apps/app_error.hpp"
#include "byte_swap.hpp"
#include "npy_header.hpp"
#include "text_number.hpp"

namespace bkt::apps {
namespace {

/// Text is formatted into blocks of about this size before each write.
constexpr std::size_t text_block_bytes = std::size_t{1} << 20;

}  // namespace

std::string array_prefix(file_format format, dtype type, std::int64_t total) {
  return format == file_format::npy ? detail::format_npy_header(type, total) : std::string();
}

std::int64_t fixed_element_bytes(file_format format, dtype type) {
  return format == file_format::text ? 0 : static_cast<std::int64_t>(dtype_size(type));
}

std::int64_t text_bytes(const void* data, std::int64_t count, dtype type) {
  const auto* element = static_cast<const std::byte*>(data);
  std::string text;
  std::int64_t bytes = 0;
  for (std::int64_t i = 0; i < count; ++i, element += dtype_size(type)) {
    text.clear();
    detail::append_number(text, element, type);
    bytes += static_cast<std::int64_t>(text.size()) + 1;
  }
  return bytes;
}

array_part_writer::array_part_writer(const std::string& temporary, std::string name, file_format format,
                                     byte_order order, dtype type, std::int64_t first_byte)
    : name_(std::move(name)),
      format_(format),
      type_(type),
      swap_(format == file_format::raw && detail::needs_swap(order == byte_order::big)),
      offset_(first_byte) {
  fd_ = ::open(temporary.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd_ < 0) throw app_error(name_ + ": write failed: " + std::strerror(errno));
}

array_part_writer::~array_part_writer() {
  if (fd_ >= 0) ::close(fd_);
}

void array_part_writer::write_bytes(const void* data, std::int64_t bytes) {
  const auto* from = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t done = ::pwrite(fd_, from, static_cast<std::size_t>(std::min<std::int64_t>(bytes, 1 << 30)), offset_);
    if (done < 0 && errno == EINTR) continue;
    if (done <= 0) throw app_error(name_ + ": write failed: " + std::strerror(done < 0 ? errno : EIO));
    from += done;
    bytes -= done;
    offset_ += done;
  }
}

void array_part_writer::write(const void* data, std::int64_t count) {
  const std::size_t element_bytes = dtype_size(type_);
  if (format_ != file_format::text) {
    const auto bytes = static_cast<std::int64_t>(count * element_bytes);
    if (!swap_) return write_bytes(data, bytes);
    swapped_.assign(static_cast<const std::byte*>(data), static_cast<const std::byte*>(data) + bytes);
    detail::swap_bytes(swapped_.data(), count, element_bytes);
    return write_bytes(swapped_.data(), bytes);
  }
  const auto* element = static_cast<const std::byte*>(data);
  for (std::int64_t i = 0; i < count; ++i, element += element_bytes) {
    detail::append_number(text_, element, type_);
    text_.push_back('\n');
    if (text_.size() >= text_block_bytes) flush_text();
  }
}

void array_part_writer::flush_text() {
  write_bytes(text_.data(), static_cast<std::int64_t>(text_.size()));
  text_.clear();
}

void array_part_writer::finish() {
  flush_text();
  if (::close(std::exchange(fd_, -1)) != 0) throw app_error(name_ + ": write failed: " + std::strerror(errno));
}

}  // namespace bkt::apps
