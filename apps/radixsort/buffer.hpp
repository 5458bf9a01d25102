// Host buffers whose resize leaves new elements uninitialised: every chunk is overwritten by a
// read or a download right away, and zero-filling gigabytes first costs a page fault per page in
// user space (several seconds for 4 GiB on some hosts) for nothing.
#pragma once

#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace bkt::radixsort {

template <class T>
struct default_init_allocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = default_init_allocator<U>;
  };
  default_init_allocator() = default;
  template <class U>
  default_init_allocator(const default_init_allocator<U>&) noexcept {}
  /// Default-initialises (no zeroing for arithmetic types) instead of value-initialising.
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    std::allocator_traits<std::allocator<T>>::construct(static_cast<std::allocator<T>&>(*this), p,
                                                         std::forward<Args>(args)...);
  }
};

template <class T>
using buffer = std::vector<T, default_init_allocator<T>>;

}  // namespace bkt::radixsort
