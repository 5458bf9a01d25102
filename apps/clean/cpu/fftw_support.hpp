// The FFTW pieces the CPU path shares: SIMD-aligned buffers, one lock around the planner, plans that
// destroy themselves, and FFT-friendly sizes.
#pragma once

#include <fftw3.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>

namespace bkt::clean::cpu {

struct fftwf_free_deleter {
  void operator()(void* pointer) const noexcept { fftwf_free(pointer); }
};

/// An array from fftwf_malloc (aligned for FFTW's SIMD code paths).
template <class T>
using fftwf_array = std::unique_ptr<T[], fftwf_free_deleter>;

/// count uninitialised values of T from fftwf_malloc; throws std::bad_alloc when it fails.
template <class T>
fftwf_array<T> make_fftwf_array(std::size_t count) {
  void* memory = fftwf_malloc(count * sizeof(T));
  if (memory == nullptr && count > 0) throw std::bad_alloc();
  return fftwf_array<T>(static_cast<T*>(memory));
}

/// Held while creating or destroying a plan: FFTW's planner is not thread-safe (executing is).
std::mutex& fftw_planner_mutex();

/// Makes the plans that follow run on `threads` threads (FFTW's threads); call with the planner
/// lock held. The thread count is part of FFTW's planner state, so every plan sets its own.
void plan_with_threads(int threads);

/// Owns one fftwf_plan; destroys it under the planner lock.
class fftwf_plan_owner {
 public:
  fftwf_plan_owner() = default;
  explicit fftwf_plan_owner(fftwf_plan plan) : plan_(plan) {}
  ~fftwf_plan_owner();
  fftwf_plan_owner(fftwf_plan_owner&& other) noexcept : plan_(other.plan_) { other.plan_ = nullptr; }
  fftwf_plan_owner& operator=(fftwf_plan_owner&& other) noexcept;
  fftwf_plan_owner(const fftwf_plan_owner&) = delete;
  fftwf_plan_owner& operator=(const fftwf_plan_owner&) = delete;

  fftwf_plan get() const noexcept { return plan_; }

 private:
  fftwf_plan plan_ = nullptr;
};

/// The smallest n >= at_least of the form 2^a 3^b 5^c 7^d: the sizes FFTW transforms fastest.
std::int64_t fft_friendly_size(std::int64_t at_least);

}  // namespace bkt::clean::cpu
