// Input text in memory, as the parsers want it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string_view>

#include "io/huge_pages.hpp"

namespace bkt::sssp::detail {

/// `size()` bytes followed by one '\n' that is not part of them, so that any scan for the end of a
/// line stops inside the buffer. The bytes are not zeroed when allocated: they are about to be
/// overwritten by a read, and zeroing gigabytes costs time.
class text_buffer {
 public:
  text_buffer() : text_buffer(0) {}
  explicit text_buffer(std::size_t size)
      : bytes_(std::make_unique_for_overwrite<char[]>(size + 1)), size_(size), capacity_(size) {
    prefer_huge_pages(bytes_.get(), size_);
    bytes_[size_] = '\n';
  }

  char* data() noexcept { return bytes_.get(); }
  const char* data() const noexcept { return bytes_.get(); }
  std::size_t size() const noexcept { return size_; }
  /// The most bytes the buffer holds without reallocating.
  std::size_t capacity() const noexcept { return capacity_; }
  std::string_view view() const noexcept { return {bytes_.get(), size_}; }

  /// Keeps the first `used` bytes (at most size()) and makes room for `size` in all.
  void resize(std::size_t used, std::size_t size) {
    auto bigger = std::make_unique_for_overwrite<char[]>(size + 1);
    prefer_huge_pages(bigger.get(), size);
    std::copy_n(bytes_.get(), std::min(used, std::min(size, size_)), bigger.get());
    bytes_ = std::move(bigger);
    size_ = capacity_ = size;
    bytes_[size_] = '\n';
  }
  /// Makes the size `size` (at most capacity()) without reallocating. The sentinel overwrites the
  /// byte at `size`: a caller that still needs it saves it first.
  void set_size(std::size_t size) noexcept {
    size_ = std::min(size, capacity_);
    bytes_[size_] = '\n';
  }
  /// Drops the bytes from `size` on, without reallocating.
  void truncate(std::size_t size) noexcept {
    if (size < size_) set_size(size);
  }

 private:
  std::unique_ptr<char[]> bytes_;
  std::size_t size_;
  std::size_t capacity_;
};

}  // namespace bkt::sssp::detail
