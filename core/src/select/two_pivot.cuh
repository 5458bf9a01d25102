// The host side of the two-pivot filter: a first level (a sampled window and a filter pass over
// the input) and the narrowing kernel, which finishes on the device; then the host reads two
// counts (one stream synchronization per call) to learn whether the window held the target, and
// runs both again with a wider window when it did not. Where cooperative launches are not
// available, the levels repeat, each with its own sample and synchronization, until one block can
// sort the rest.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>

#include "bkt/device/occupancy.cuh"
#include "bkt/detail/select/narrow_kernel.cuh"
#include "bkt/detail/select/two_pivot_kernels.cuh"
#include "bkt/detail/workspace_layout.hpp"
#include "bkt/error.hpp"
#include "bkt/workspace.hpp"

namespace bkt::detail::select {

/// The finishing sort handles up to this many records in one block.
template <class W, class P>
inline constexpr std::int64_t finish_size = sample_shape<W, P>::samples;

/// Window widths tried in turn (standard deviations of the sample rank): a level whose window
/// misses the target, or holds more than the buffers take, runs again wider.
inline constexpr float window_spreads[] = {3.0f, 5.0f, 7.0f};

/// Device memory for one search over `size` records: two candidate buffers (the first level keeps
/// at most a sixteenth of the input, later levels an eighth of that), the drawn sample, the
/// level's window and counts, and the selected position. The widest first window (7 standard
/// deviations of a drawn sample's rank to either side) holds 3.9 % of the input.
template <class W, class P>
struct two_pivot_layout {
  std::int64_t capacity[2];
  std::size_t words[2], positions[2], sample, report, selected, state, histogram, total;

  explicit two_pivot_layout(std::int64_t size) {
    capacity[0] = size / 16 + finish_size<W, P>;
    capacity[1] = capacity[0] / 8 + finish_size<W, P>;
    workspace_layout layout;
    for (int b = 0; b < 2; ++b) {
      words[b] = layout.add(sizeof(W) * capacity[b]);
      positions[b] = layout.add(sizeof(P) * capacity[b]);
    }
    sample = layout.add(sizeof(W) * drawn_shape<W>::samples);
    report = layout.add(sizeof(level_report<W, P>));
    selected = layout.add(sizeof(P));
    state = layout.add(sizeof(narrow_state<W, P>));
    histogram = layout.add(sizeof(unsigned long long) * narrow_shape::bins);
    total = layout.total_bytes();
  }
};

/// Finds the record of rank `target` among the input's records (T oriented by `largest`) and
/// leaves its position in the workspace (returned). When `taken` is not null it also receives the
/// positions of ranks [0, target], in no particular order.
template <class T, class P>
class two_pivot_search {
 public:
  using W = radix_word<T>;

  two_pivot_search(const T* data, std::int64_t size, bool largest, std::uint64_t seed, void* base)
      : input_{data, size, largest}, layout_(size), base_(base), seed_(seed) {}

  static std::size_t workspace_bytes(std::int64_t size) { return two_pivot_layout<W, P>(size).total; }

  P* run(std::int64_t target, P* taken, cudaStream_t stream) {
    auto* selected = slice_at<P>(base_, layout_.selected);
    std::int64_t taken_count = 0;
    // At most two blocks per multiprocessor: more only make each barrier dearer.
    const int narrow_blocks = cooperative_blocks(narrow_kernel<W, P>, narrow_shape::block_threads, 0, 2);
    // Level d writes buffer d % 2, so level d reads buffer (d - 1) % 2.
    bool done = level(input_, target, taken, taken_count, 0, narrow_blocks, stream);
    for (std::uint64_t depth = 1; !done; ++depth) {
      const int from = static_cast<int>((depth - 1) % 2);
      const buffered_records<W, P> kept{slice_at<W>(base_, layout_.words[from]),
                                        slice_at<P>(base_, layout_.positions[from]), kept_size_};
      done = level(kept, target, taken, taken_count, depth, 0, stream);
    }
    return selected;
  }

 private:
  /// Finishes from the first level's records (buffer 0) with the narrowing kernel, which does
  /// nothing when the level's window missed (see narrow_start).
  void narrow(int blocks, std::int64_t target, P* taken, cudaStream_t stream) {
    auto kernel = narrow_kernel<W, P>;
    narrow_args<W, P> args{};
    for (int b = 0; b < 2; ++b) {
      args.words[b] = slice_at<W>(base_, layout_.words[b]);
      args.positions[b] = slice_at<P>(base_, layout_.positions[b]);
      args.capacity[b] = layout_.capacity[b];
    }
    args.window = &report()->window;
    args.counts = &report()->counts;
    args.state = slice_at<narrow_state<W, P>>(base_, layout_.state);
    args.histogram = slice_at<unsigned long long>(base_, layout_.histogram);
    args.target = target;
    args.selected = slice_at<P>(base_, layout_.selected);
    args.taken = taken;
    void* params[] = {&args};
    BKT_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel),
                                               dim3(static_cast<unsigned>(blocks)),
                                               dim3(narrow_shape::block_threads), params, 0, stream));
    BKT_CHECK_LAUNCH(stream);
  }

  level_report<W, P>* report() const { return slice_at<level_report<W, P>>(base_, layout_.report); }

  /// Draws the level's sample where its positions follow from its indices (the input's): the
  /// words of up to drawn_shape::samples stratified positions. Returns how many were drawn; kept
  /// records (positions in no order) are sampled by place_window itself.
  template <class Source>
  std::int64_t draw_sample(const Source& source, std::uint64_t seed, cudaStream_t stream) {
    if constexpr (Source::positions_in_order) {
      using shape = drawn_shape<W>;
      const std::int64_t drawn = std::min(source.size, shape::samples);
      const auto blocks = static_cast<unsigned>((drawn + shape::draw_block - 1) / shape::draw_block);
      draw_words_kernel<<<blocks, shape::draw_block, 0, stream>>>(source, drawn, seed,
                                                                  slice_at<W>(base_, layout_.sample));
      BKT_CHECK_LAUNCH(stream);
      return drawn;
    } else {
      return 0;
    }
  }

  /// Writes the window around `target` (and zeroes the counts): from the drawn sample, or from a
  /// sorted sample of kept records.
  template <class Source>
  void place_window(const Source& source, std::int64_t drawn, std::int64_t target, float spread, std::uint64_t seed,
                    cudaStream_t stream) {
    auto* r = report();
    if constexpr (Source::positions_in_order) {
      using shape = drawn_shape<W>;
      drawn_window_kernel<shape::block, shape::items, W, P><<<1, shape::block, 0, stream>>>(
          slice_at<W>(base_, layout_.sample), drawn, source.size, target, spread, seed, &r->window, &r->counts);
    } else {
      using shape = sample_shape<W, P>;
      const std::size_t sort_bytes = sizeof(typename block_record_sort<shape::block, shape::items, W, P>::storage);
      auto kernel = sorted_window_kernel<shape::block, shape::items, Source>;
      allow_shared_bytes(kernel, sort_bytes);
      kernel<<<1, shape::block, sort_bytes, stream>>>(source, target, spread, seed, &r->window, &r->counts);
    }
    BKT_CHECK_LAUNCH(stream);
  }

  /// Runs one level on `source`; true when it finished. With `narrow_blocks` (only for the first
  /// level) the narrowing kernel finishes what the level kept. Otherwise the kept records went to
  /// the buffer the next level reads, and target/taken_count moved past what lies below them.
  template <class Source>
  bool level(const Source& source, std::int64_t& target, P* taken, std::int64_t& taken_count, std::uint64_t depth,
             int narrow_blocks, cudaStream_t stream) {
    using shape = sample_shape<W, P>;
    auto* selected = slice_at<P>(base_, layout_.selected);
    P* taken_here = taken ? taken + taken_count : nullptr;
    if (source.size <= finish_size<W, P>) {
      auto kernel = finish_kernel<shape::block, shape::items, Source>;
      const std::size_t sort_bytes = sizeof(typename block_record_sort<shape::block, shape::items, W, P>::storage);
      allow_shared_bytes(kernel, sort_bytes);
      kernel<<<1, shape::block, sort_bytes, stream>>>(source, target, selected, taken_here);
      BKT_CHECK_LAUNCH(stream);
      return true;
    }
    const int to = static_cast<int>(depth % 2);
    auto* r = report();
    const auto filters = filters_for<Source>(source, taken != nullptr);
    const auto tiles = static_cast<unsigned>((source.size + filter_shape<W>::tile - 1) / filter_shape<W>::tile);
    const auto tied_blocks = static_cast<unsigned>(
        std::min<std::int64_t>(tiles, resident_blocks(filters.tied, filter_shape<W>::block, 0)));
    // A wider window on the same sample: the sample is drawn once a level.
    const std::uint64_t seed = seed_ + depth * 0x632be59bd9b4e019ull;
    const std::int64_t drawn = draw_sample(source, seed, stream);
    for (const float spread : window_spreads) {
      place_window(source, drawn, target, spread, seed, stream);
      const filter_outputs<Source> out{slice_at<W>(base_, layout_.words[to]), slice_at<P>(base_, layout_.positions[to]),
                                       layout_.capacity[to], taken_here, taken ? target : 0, &r->counts};
      // One of the two has work, as the window decides on the device.
      filters.common<<<tiles, filter_shape<W>::block, 0, stream>>>(source, &r->window, out);
      BKT_CHECK_LAUNCH(stream);
      filters.tied<<<tied_blocks, filter_shape<W>::block, 0, stream>>>(source, &r->window, out);
      BKT_CHECK_LAUNCH(stream);
      if (narrow_blocks > 0) narrow(narrow_blocks, target, taken_here, stream);
      level_report<W, P> host{};
      BKT_CUDA_CHECK(cudaMemcpyAsync(&host, r, sizeof host, cudaMemcpyDeviceToHost, stream));
      BKT_CUDA_CHECK(cudaStreamSynchronize(stream));
      const auto below = static_cast<std::int64_t>(host.counts.below);
      const auto kept = static_cast<std::int64_t>(host.counts.middle);
      const bool inside = below <= target && target < below + kept;
      const bool counted = counted_only(host.window, taken != nullptr);
      const bool fits = counted || kept <= layout_.capacity[to];
      if (narrow_blocks > 0 && inside && fits) return true;  // as narrow_start: the kernel finished
      if (inside && counted) {
        // The low pivot's element has the one word the target has. From pageable memory the copy
        // has read its source by the time it returns.
        BKT_CUDA_CHECK(
            cudaMemcpyAsync(selected, &host.window.low.position, sizeof(P), cudaMemcpyHostToDevice, stream));
        return true;
      }
      if (inside && fits) {
        target -= below;
        taken_count += below;
        kept_size_ = kept;
        return false;
      }
    }
    throw error("selection: the sampled window missed the target three times (kept records exceed the buffer)",
                cudaSuccess, __FILE__, __LINE__);
  }

  /// The two filter kernels of one pass over `Source` (filter_kernel, common and TIED).
  template <class Source>
  struct filter_pair {
    using kernel = void (*)(Source, const pivots<W, P>*, filter_outputs<Source>);
    kernel common, tied;
  };

  template <class Source, bool TAKE_BELOW, bool DESCENDING>
  static filter_pair<Source> filters() {
    constexpr int block = filter_shape<W>::block, items = filter_shape<W>::items;
    return {filter_kernel<block, items, TAKE_BELOW, DESCENDING, false, Source>,
            filter_kernel<block, items, TAKE_BELOW, DESCENDING, true, Source>};
  }

  /// The filter kernels for `source`'s order, taking what lies below the window or counting it.
  template <class Source>
  static filter_pair<Source> filters_for(const Source& source, bool take_below) {
    if constexpr (Source::may_descend) {
      if (source.largest) return take_below ? filters<Source, true, true>() : filters<Source, false, true>();
    }
    return take_below ? filters<Source, true, false>() : filters<Source, false, false>();
  }

  input_records<T, P> input_;
  two_pivot_layout<W, P> layout_;
  void* base_;
  std::uint64_t seed_;
  std::int64_t kept_size_ = 0;
};

}  // namespace bkt::detail::select
