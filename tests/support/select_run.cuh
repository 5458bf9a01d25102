// Runs selection on the GPU from host data and compares it with bkt::ref: values in the selection
// order (bit for bit, except that NaNs of any sign and payload are equal, as bkt/select.hpp says),
// positions exactly, outputs poisoned past what a call may write, and after every call the device
// input compared word for word with a pristine copy of itself. A check runs the public call, or
// one of the bench baselines of bkt/detail/select/baselines.hpp.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iomanip>
#include <limits>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "bkt/detail/select/baselines.hpp"
#include "bkt/detail/select/select_bits.hpp"
#include "bkt/memory.hpp"
#include "bkt/ref/select.hpp"
#include "bkt/select.hpp"
#include "checks.hpp"
#include "device_run.hpp"
#include "generators.hpp"

namespace bkt::test {

/// Poisoned elements each output gets past what the call may write.
inline constexpr std::int64_t select_margin = 23;

using bkt::detail::select_baseline;

/// The algorithms a sweep checks: the public calls' (none) and every bench baseline.
inline constexpr std::array<select_baseline, 5> every_select_algorithm{
    select_baseline::none, select_baseline::sample_select, select_baseline::radix_sort, select_baseline::quickselect,
    select_baseline::bucket_select};

/// Those with a top_k of their own (the splitter searches have none).
inline constexpr std::array<select_baseline, 2> every_top_k_algorithm{select_baseline::none,
                                                                      select_baseline::radix_sort};

inline bool has_own_top_k(select_baseline algorithm) {
  return std::find(every_top_k_algorithm.begin(), every_top_k_algorithm.end(), algorithm) != every_top_k_algorithm.end();
}

inline std::string name_of(select_baseline algorithm) {
  switch (algorithm) {
    case select_baseline::none: return "default";
    case select_baseline::sample_select: return "sample_select";
    case select_baseline::radix_sort: return "radix_sort";
    case select_baseline::quickselect: return "quickselect";
    case select_baseline::bucket_select: return "bucket_select";
  }
  return "?";
}

/// A checked call's options and algorithm: none runs the public call, anything else the
/// baseline's entry point. Passes as the public options where only those matter.
struct select_choice : select_options {
  select_baseline baseline = select_baseline::none;
};
struct top_k_choice : top_k_options {
  select_baseline baseline = select_baseline::none;
};

/// The sampling seeds a sweep runs with: the default, and outside quick mode one drawn from the
/// run's seed. Results must not depend on it.
inline std::vector<std::uint64_t> sampling_seeds() {
  std::vector<std::uint64_t> seeds{select_options{}.seed};
  if (!quick_mode()) seeds.push_back(seed() * 0xbf58476d1ce4e5b9ull + 0x94d049bb133111ebull);
  return seeds;
}

inline select_choice make_select_options(select_baseline algorithm, std::uint64_t sampling_seed) {
  select_choice options;
  options.baseline = algorithm;
  options.seed = sampling_seed;
  return options;
}

template <class T>
void run_select_kth(std::span<const T> data, std::int64_t k, T* result, workspace& ws, cudaStream_t stream,
                    const select_choice& options) {
  if (options.baseline == select_baseline::none)
    bkt::select_kth<T>(data, k, result, ws, stream, options);
  else
    bkt::detail::select_kth_baseline<T>(data, k, result, ws, stream, options.baseline, options);
}

template <class T>
void run_multiselect(std::span<const T> data, std::span<const std::int64_t> ranks, std::span<T> results,
                     workspace& ws, cudaStream_t stream, const select_choice& options) {
  if (options.baseline == select_baseline::none)
    bkt::multiselect<T>(data, ranks, results, ws, stream, options);
  else
    bkt::detail::multiselect_baseline<T>(data, ranks, results, ws, stream, options.baseline, options);
}

inline std::vector<std::int64_t> distinct_sorted(std::vector<std::int64_t> values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

/// The ranks a sweep selects among n > 0 elements: 0, 1, a small one, n / 2 and n - 1.
inline std::vector<std::int64_t> rank_classes(std::int64_t n) {
  std::vector<std::int64_t> ranks{0, 1, 17, n / 2, n - 1};
  std::erase_if(ranks, [n](std::int64_t k) { return k >= n; });
  return distinct_sorted(ranks);
}

/// The counts a top_k sweep keeps of n elements: 0, 1, 32, n / 2 and n.
inline std::vector<std::int64_t> top_k_counts(std::int64_t n) {
  std::vector<std::int64_t> counts{0, 1, 32, n / 2, n};
  std::erase_if(counts, [n](std::int64_t k) { return k > n; });
  return distinct_sorted(counts);
}

/// `count` ranks at the quantiles (i + 1) / (count + 1) of n > 0 elements, ascending; small n
/// repeats ranks.
inline std::vector<std::int64_t> quantile_ranks(std::int64_t n, int count) {
  std::vector<std::int64_t> ranks(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) ranks[i] = (i + 1) * n / (count + 1);
  return ranks;
}

// ---- values in the selection order ----

/// An element's selection image: equal images are equal in the selection order.
template <class T>
auto order_image(const T& x) {
  return bkt::detail::select_bits(x);
}

template <class T>
bool same_in_order(const T& a, const T& b) {
  return order_image(a) == order_image(b);
}

/// "value (bits 0x...)", for failure messages.
template <class T>
std::string describe(const T& x) {
  bkt::detail::radix_word<T> bits;
  std::memcpy(&bits, &x, sizeof(T));
  std::ostringstream text;
  text << std::setprecision(std::numeric_limits<T>::max_digits10) << +x << " (bits 0x" << std::hex
       << static_cast<std::uint64_t>(bits) << ")";
  return text.str();
}

/// want[i] and got[i] equal in the selection order (bit for bit but for NaN payloads and signs).
template <class T>
::testing::AssertionResult equal_in_order(std::span<const T> want, std::span<const T> got) {
  if (want.size() != got.size())
    return ::testing::AssertionFailure() << "sizes differ: want " << want.size() << ", got " << got.size();
  for (std::size_t i = 0; i < want.size(); ++i)
    if (!same_in_order(want[i], got[i]))
      return ::testing::AssertionFailure() << "element " << i << " of " << want.size() << ": want " << describe(want[i])
                                           << ", got " << describe(got[i]);
  return ::testing::AssertionSuccess();
}

// ---- the input, on the device, with a check that no call modified it ----

template <class Word>
__global__ void count_changed_words(const Word* data, const Word* pristine, std::int64_t n,
                                    unsigned long long* changed) {
  unsigned long long local = 0;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    local += data[i] != pristine[i];
  if (local != 0) atomicAdd(changed, local);
}

/// Host data copied to the device, with a second copy that no call sees: unchanged() compares the
/// two word for word on the device (one small read-back instead of copying the input back).
template <class T>
class device_input {
 public:
  device_input(std::span<const T> host, cudaStream_t stream)
      : data_(bkt::to_device<T>(host, stream)),
        pristine_(static_cast<std::int64_t>(host.size()), stream),
        changed_(1, stream),
        stream_(stream) {
    if (!host.empty())
      BKT_CUDA_CHECK(
          cudaMemcpyAsync(pristine_.data(), data_.data(), data_.size_bytes(), cudaMemcpyDeviceToDevice, stream));
  }

  std::span<const T> span() const noexcept { return data_.span(); }
  std::int64_t size() const noexcept { return data_.size(); }

  ::testing::AssertionResult unchanged() {
    if (data_.empty()) return ::testing::AssertionSuccess();
    using word = bkt::detail::radix_word<T>;
    static_assert(sizeof(word) == sizeof(T));
    BKT_CUDA_CHECK(cudaMemsetAsync(changed_.data(), 0, sizeof(unsigned long long), stream_));
    const std::int64_t blocks = std::min<std::int64_t>((data_.size() + 255) / 256, 2048);
    count_changed_words<word><<<static_cast<unsigned>(blocks), 256, 0, stream_>>>(
        reinterpret_cast<const word*>(data_.data()), reinterpret_cast<const word*>(pristine_.data()), data_.size(),
        changed_.data());
    BKT_CHECK_LAUNCH(stream_);
    const unsigned long long changed = bkt::read_sync(changed_.data(), stream_);
    if (changed == 0) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << changed << " of " << data_.size() << " input elements were modified";
  }

 private:
  device_buffer<T> data_;
  device_buffer<T> pristine_;
  device_buffer<unsigned long long> changed_;
  cudaStream_t stream_;
};

// ---- select_kth, multiselect, approx_select ----

/// The reference's element of each rank (one sort of the input for all of them).
template <class T>
std::vector<T> reference_ranks(std::span<const T> keys, std::span<const std::int64_t> ranks) {
  std::vector<T> want(ranks.size());
  bkt::ref::multiselect<T>(keys, ranks, want);
  return want;
}

/// select_kth of each ranks[i] equals want[i]; nothing past *result is written.
template <class T>
void check_select_kth(device_input<T>& input, std::span<const std::int64_t> ranks, std::span<const T> want,
                      const select_choice& options, workspace& ws, cudaStream_t stream) {
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    auto result = poisoned_buffer<T>(1 + select_margin, stream);
    run_select_kth<T>(input.span(), ranks[i], result.data(), ws, stream, options);
    const auto got = to_host(result);
    EXPECT_TRUE(equal_in_order<T>(want.subspan(i, 1), std::span<const T>(got).first(1))) << "select_kth k=" << ranks[i];
    EXPECT_TRUE(poison_intact<T>(std::span<const T>(got).subspan(1))) << "select_kth k=" << ranks[i];
    EXPECT_TRUE(input.unchanged()) << "select_kth k=" << ranks[i];
  }
}

/// multiselect of `ranks` equals `want`; nothing past results[ranks.size() - 1] is written.
template <class T>
void check_multiselect(device_input<T>& input, std::span<const std::int64_t> ranks, std::span<const T> want,
                       const select_choice& options, workspace& ws, cudaStream_t stream, const std::string& what) {
  const auto m = static_cast<std::int64_t>(ranks.size());
  auto results = poisoned_buffer<T>(m + select_margin, stream);
  run_multiselect<T>(input.span(), ranks, results.span().first(static_cast<std::size_t>(m)), ws, stream, options);
  const auto got = to_host(results);
  EXPECT_TRUE(equal_in_order<T>(want, std::span<const T>(got).first(ranks.size()))) << "multiselect, " << what;
  EXPECT_TRUE(poison_intact<T>(std::span<const T>(got).subspan(ranks.size()))) << "multiselect, " << what;
  EXPECT_TRUE(input.unchanged()) << "multiselect, " << what;
}

/// The rank error approx_select promises, with overwhelming probability (the sample's quantile is
/// within about n / sqrt(sample_size) ranks of the target; the closest exactly ranked candidate
/// only does better): at most 2 n / sqrt(sample_size) + 1.
inline double approx_rank_error_bound(std::int64_t n, int sample_size) {
  return 2.0 * static_cast<double>(n) / std::sqrt(static_cast<double>(sample_size)) + 1.0;
}

/// approx_select's certificate for rank k: the value is an element of `keys`, rank_first and
/// rank_last are exactly its ranks (ref::rank_range), rank_error is the distance of k from them, and
/// it is within approx_rank_error_bound.
template <class T>
::testing::AssertionResult certificate_holds(std::span<const T> keys, std::int64_t k, const approx_selection<T>& got,
                                             int sample_size) {
  // rank_range counts the elements equal to the value (in the selection order): none, and it is
  // not an element of the input.
  const auto [first, last] = bkt::ref::rank_range<T>(keys, got.value);
  if (last < first) return ::testing::AssertionFailure() << describe(got.value) << " is not an element of the input";
  if (got.rank_first != first || got.rank_last != last)
    return ::testing::AssertionFailure() << describe(got.value) << " has ranks [" << first << ", " << last << "], not ["
                                         << got.rank_first << ", " << got.rank_last << "]";
  const std::int64_t distance = k < first ? first - k : (k > last ? k - last : 0);
  if (got.rank_error != distance)
    return ::testing::AssertionFailure() << "rank_error " << got.rank_error << ", but k=" << k << " is " << distance
                                         << " from [" << first << ", " << last << "]";
  const auto n = static_cast<std::int64_t>(keys.size());
  const double bound = approx_rank_error_bound(n, sample_size);
  if (static_cast<double>(distance) > bound)
    return ::testing::AssertionFailure() << "rank_error " << distance << " exceeds the bound " << bound << " (n=" << n
                                         << ", sample_size=" << sample_size << ")";
  return ::testing::AssertionSuccess();
}

/// One approx_select call on the device, its certificate checked; nothing past *result written.
template <class T>
void check_approx_select(std::span<const T> keys, device_input<T>& input, std::int64_t k,
                         const approx_select_options& options, workspace& ws, cudaStream_t stream) {
  auto result = poisoned_buffer<approx_selection<T>>(1 + select_margin, stream);
  bkt::approx_select<T>(input.span(), k, result.data(), ws, stream, options);
  const auto all = to_host(result);
  const std::string what =
      "approx_select k=" + std::to_string(k) + " candidates=" + std::to_string(options.candidates) +
      " sample_size=" + std::to_string(options.sample_size) + " seed=" + std::to_string(options.seed);
  EXPECT_TRUE(certificate_holds<T>(keys, k, all[0], options.sample_size)) << what;
  EXPECT_TRUE(poison_intact<approx_selection<T>>(std::span<const approx_selection<T>>(all).subspan(1))) << what;
  EXPECT_TRUE(input.unchanged()) << what;
}

// ---- top_k, top_k_pairs, top_k_batched ----

/// Which outputs a top_k check asks for: values and uint32 or int64 indices, one of them alone,
/// or top_k_pairs carrying 4- or 8-byte caller values (with keys, or the values alone).
enum class top_k_form {
  values_indices32,
  values_indices64,
  values_only,
  indices32_only,
  indices64_only,
  pairs32,
  pairs64,
  pairs64_no_keys,
};
inline constexpr std::array<top_k_form, 8> every_top_k_form{
    top_k_form::values_indices32, top_k_form::values_indices64, top_k_form::values_only, top_k_form::indices32_only,
    top_k_form::indices64_only,   top_k_form::pairs32,          top_k_form::pairs64,     top_k_form::pairs64_no_keys};

inline std::string name_of(top_k_form form) {
  switch (form) {
    case top_k_form::values_indices32: return "values+indices32";
    case top_k_form::values_indices64: return "values+indices64";
    case top_k_form::values_only: return "values only";
    case top_k_form::indices32_only: return "indices32 only";
    case top_k_form::indices64_only: return "indices64 only";
    case top_k_form::pairs32: return "pairs, 4-byte values";
    case top_k_form::pairs64: return "pairs, 8-byte values";
    case top_k_form::pairs64_no_keys: return "pairs, 8-byte values without keys";
  }
  return "?";
}

inline top_k_choice make_top_k_options(bool largest, bool sorted, select_baseline algorithm = select_baseline::none,
                                       std::uint64_t sampling_seed = top_k_options{}.seed) {
  top_k_choice options;
  options.largest = largest;
  options.sorted = sorted;
  options.baseline = algorithm;
  options.seed = sampling_seed;
  return options;
}

inline std::string describe_options(const top_k_options& options) {
  return std::string(options.largest ? "largest" : "smallest") + (options.sorted ? " sorted" : " unsorted");
}

inline std::string describe_options(const top_k_choice& options) {
  return describe_options(static_cast<const top_k_options&>(options)) + " " + name_of(options.baseline);
}

template <class T, class Index>
void run_top_k(std::span<const T> data, std::int64_t k, std::span<T> values_out, std::span<Index> indices_out,
               workspace& ws, cudaStream_t stream, const top_k_choice& options) {
  if (options.baseline == select_baseline::none)
    bkt::top_k<T, Index>(data, k, values_out, indices_out, ws, stream, options);
  else
    bkt::detail::top_k_baseline<T, Index>(data, k, values_out, indices_out, ws, stream, options.baseline, options);
}

template <class T, class Value>
void run_top_k_pairs(std::span<const T> keys, std::span<const Value> values, std::int64_t k, std::span<T> keys_out,
                     std::span<Value> values_out, workspace& ws, cudaStream_t stream, const top_k_choice& options) {
  if (options.baseline == select_baseline::none)
    bkt::top_k_pairs<T, Value>(keys, values, k, keys_out, values_out, ws, stream, options);
  else
    bkt::detail::top_k_pairs_baseline<T, Value>(keys, values, k, keys_out, values_out, ws, stream, options.baseline,
                                                options);
}

/// The caller values of the pair forms: position * odd + 1 is a bijection modulo 2^32 and 2^64,
/// so the position comes back from the value; not the identity, so values mixed up with
/// positions show.
inline constexpr std::uint64_t carry_multiplier = 0xd1342543de82ef95ull;
inline constexpr std::uint64_t carry_inverse = [] {
  std::uint64_t x = carry_multiplier;  // right to 3 bits; each Newton step doubles that
  for (int i = 0; i < 5; ++i) x *= 2 - carry_multiplier * x;
  return x;
}();
static_assert(carry_multiplier * carry_inverse == 1);

template <class Word>
Word carried_value(std::int64_t position) {
  return static_cast<Word>(static_cast<std::uint64_t>(position) * carry_multiplier + 1);
}

/// The position a carried value came from (below 2^32 for 4-byte values).
template <class Word>
std::int64_t carried_position(Word value) {
  const auto position = static_cast<Word>((static_cast<std::uint64_t>(value) - 1) * carry_inverse);
  return static_cast<std::int64_t>(std::min<std::uint64_t>(position, std::numeric_limits<std::int64_t>::max()));
}

/// The reference's whole order (ref::top_k with k = n): top_k of any k is its first k elements,
/// so one sort per input and direction serves every k.
template <class T>
struct top_k_order {
  std::vector<T> values;
  std::vector<std::int64_t> positions;
};

template <class T>
top_k_order<T> reference_top_k_order(std::span<const T> keys, bool largest) {
  top_k_order<T> order{std::vector<T>(keys.size()), std::vector<std::int64_t>(keys.size())};
  bkt::ref::top_k<T, std::int64_t>(keys, static_cast<std::int64_t>(keys.size()), order.values, order.positions,
                                   make_top_k_options(largest, true));
  return order;
}

/// The whole smallest-first order from the largest-first one, without a second reference sort:
/// reversed, then each run of equal keys turned back so that equal keys keep ascending positions.
template <class T>
top_k_order<T> smallest_first(const top_k_order<T>& largest_first) {
  top_k_order<T> order{std::vector<T>(largest_first.values.rbegin(), largest_first.values.rend()),
                       std::vector<std::int64_t>(largest_first.positions.rbegin(), largest_first.positions.rend())};
  const std::size_t n = order.values.size();
  for (std::size_t begin = 0, end = 0; begin < n; begin = end) {
    for (end = begin + 1; end < n && same_in_order(order.values[end], order.values[begin]);) ++end;
    std::reverse(order.values.begin() + begin, order.values.begin() + end);
    std::reverse(order.positions.begin() + begin, order.positions.begin() + end);
  }
  return order;
}

/// A top_k result against the reference's k (value, position) pairs. got_values or got_positions
/// is empty when the call did not produce it. Unsorted results are first sorted in the reference
/// order (by value, then position); since ties go to the smaller position, the positions must then
/// be exactly the reference's.
template <class T>
::testing::AssertionResult matches_top_k(std::span<const T> keys, std::span<const T> want_values,
                                         std::span<const std::int64_t> want_positions, bool largest, bool sorted,
                                         std::span<const T> got_values, std::span<const std::int64_t> got_positions) {
  const std::size_t k = want_positions.size();
  const auto n = static_cast<std::int64_t>(keys.size());
  const bool with_values = !got_values.empty(), with_positions = !got_positions.empty();
  if (k == 0) {
    if (with_values || with_positions) return ::testing::AssertionFailure() << "output for k=0";
    return ::testing::AssertionSuccess();
  }
  if (!with_values && !with_positions) return ::testing::AssertionFailure() << "no output to check";
  if ((with_values && got_values.size() != k) || (with_positions && got_positions.size() != k))
    return ::testing::AssertionFailure() << got_values.size() << " values and " << got_positions.size()
                                         << " positions for k=" << k;
  for (std::size_t j = 0; j < got_positions.size(); ++j) {
    if (got_positions[j] < 0 || got_positions[j] >= n)
      return ::testing::AssertionFailure()
             << "position " << got_positions[j] << " (element " << j << ") is outside [0, " << n << ")";
    if (with_values && !same_in_order(got_values[j], keys[got_positions[j]]))
      return ::testing::AssertionFailure()
             << "element " << j << ": value " << describe(got_values[j]) << " but position " << got_positions[j]
             << " holds " << describe(keys[got_positions[j]]);
  }
  // Each result as (image, position, element): images complemented for largest, so that ascending
  // (image, position) is the reference order. Values alone sort by image only.
  using word = bkt::detail::radix_word<T>;
  const auto image = [largest](const T& x) {
    const word w = order_image(x);
    return largest ? static_cast<word>(~w) : w;
  };
  const auto value_of = [&](std::size_t j) -> const T& { return with_values ? got_values[j] : keys[got_positions[j]]; };
  struct entry {
    word image;
    std::int64_t position;
    std::size_t element;
  };
  std::vector<entry> got(k);
  for (std::size_t j = 0; j < k; ++j) got[j] = {image(value_of(j)), with_positions ? got_positions[j] : 0, j};
  if (!sorted)
    std::sort(got.begin(), got.end(), [](const entry& a, const entry& b) {
      return a.image < b.image || (a.image == b.image && a.position < b.position);
    });
  const char* how = sorted ? "" : "after sorting in the reference order, ";
  for (std::size_t j = 0; j < k; ++j) {
    if (got[j].image != image(want_values[j]))
      return ::testing::AssertionFailure()
             << how << "element " << j << " of " << k << ": want " << describe(want_values[j]) << " (position "
             << want_positions[j] << "), got " << describe(value_of(got[j].element)) << " (element " << got[j].element
             << ")";
    if (with_positions && got[j].position != want_positions[j])
      return ::testing::AssertionFailure()
             << how << "element " << j << " of " << k << ": want position " << want_positions[j] << ", got "
             << got[j].position << " (equal keys go to the smaller position)";
  }
  return ::testing::AssertionSuccess();
}

/// One top_k (or top_k_pairs) call in `form`, its outputs poisoned k + select_margin long, against
/// the reference's first k of `want` (whose direction must be options.largest).
template <class T>
void check_top_k(std::span<const T> keys, device_input<T>& input, std::int64_t k, const top_k_order<T>& want,
                 const top_k_choice& options, top_k_form form, workspace& ws, cudaStream_t stream) {
  SCOPED_TRACE("top_k k=" + std::to_string(k) + " " + describe_options(options) + " " + name_of(form));
  const auto n = static_cast<std::int64_t>(keys.size());
  const auto count = static_cast<std::size_t>(k);
  const std::int64_t room = k + select_margin;
  std::vector<T> got_values;
  std::vector<std::int64_t> got_positions;
  const auto take = [count]<class U>(const device_buffer<U>& buffer, const char* what) {
    auto host = to_host(buffer);
    if (!host.empty()) {
      EXPECT_TRUE(poison_intact<U>(std::span<const U>(host).subspan(count))) << what << " past k";
      host.resize(count);
    }
    return host;
  };

  const auto run_indices = [&]<class Index>(Index, bool with_values, bool with_indices) {
    auto values = poisoned_buffer<T>(with_values ? room : 0, stream);
    auto indices = poisoned_buffer<Index>(with_indices ? room : 0, stream);
    run_top_k<T, Index>(input.span(), k, values.span(), indices.span(), ws, stream, options);
    got_values = take(values, "values");
    const auto host_indices = take(indices, "indices");
    got_positions.assign(host_indices.begin(), host_indices.end());
  };
  const auto run_pairs = [&]<class Word>(Word, bool with_keys) {
    std::vector<Word> carried(keys.size());
    for (std::int64_t i = 0; i < n; ++i) carried[i] = carried_value<Word>(i);
    device_input<Word> carried_input(carried, stream);
    auto keys_out = poisoned_buffer<T>(with_keys ? room : 0, stream);
    auto values_out = poisoned_buffer<Word>(room, stream);
    run_top_k_pairs<T, Word>(input.span(), carried_input.span(), k, keys_out.span(), values_out.span(), ws, stream,
                             options);
    EXPECT_TRUE(carried_input.unchanged()) << "the caller's values";
    got_values = take(keys_out, "keys");
    for (const Word value : take(values_out, "values")) got_positions.push_back(carried_position(value));
  };
  switch (form) {
    case top_k_form::values_indices32: run_indices(std::uint32_t{}, true, true); break;
    case top_k_form::values_indices64: run_indices(std::int64_t{}, true, true); break;
    case top_k_form::values_only: run_indices(std::int64_t{}, true, false); break;
    case top_k_form::indices32_only: run_indices(std::uint32_t{}, false, true); break;
    case top_k_form::indices64_only: run_indices(std::int64_t{}, false, true); break;
    case top_k_form::pairs32: run_pairs(std::uint32_t{}, true); break;
    case top_k_form::pairs64: run_pairs(std::uint64_t{}, true); break;
    case top_k_form::pairs64_no_keys: run_pairs(std::uint64_t{}, false); break;
  }
  EXPECT_TRUE(input.unchanged());
  EXPECT_TRUE(matches_top_k<T>(keys, std::span<const T>(want.values).first(count),
                               std::span<const std::int64_t>(want.positions).first(count), options.largest,
                               options.sorted, got_values, got_positions));
}

/// A row of NaNs of both signs and many payloads among ordinary numbers, infinities and zeros
/// (integers: the extremes among random values).
template <class T>
std::vector<T> nan_row(std::int64_t cols, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> row(static_cast<std::size_t>(cols));
  using limits = std::numeric_limits<T>;
  for (T& x : row) {
    const std::uint64_t r = rng();
    if constexpr (std::is_floating_point_v<T>) {
      using word = bkt::detail::radix_word<T>;
      constexpr word quiet = word{1} << (limits::digits - 2);
      constexpr word sign = word{1} << (8 * sizeof(T) - 1);
      switch (r % 6) {
        case 0:
        case 1: {
          word bits;
          const T nan = limits::quiet_NaN();
          std::memcpy(&bits, &nan, sizeof(T));
          bits |= static_cast<word>(r >> 8) & (quiet - 1);  // a payload
          if (r & 0x80) bits |= sign;
          std::memcpy(&x, &bits, sizeof(T));
          break;
        }
        case 2: x = (r & 0x100) ? limits::infinity() : -limits::infinity(); break;
        case 3: x = (r & 0x100) ? T(0) : -T(0); break;
        default: x = static_cast<T>(std::uniform_real_distribution<double>(-1e3, 1e3)(rng));
      }
    } else {
      switch (r % 4) {
        case 0: x = limits::max(); break;
        case 1: x = limits::lowest(); break;
        default: x = static_cast<T>(rng());
      }
    }
  }
  return row;
}

/// A rows x cols matrix whose rows differ in kind: row 0 all equal, row 1 sorted ascending, row 2
/// NaN-laden (nan_row), and the others drawn from the generators in turn (uniform first).
template <class T>
std::vector<T> batched_matrix(std::int64_t rows, std::int64_t cols, std::uint64_t seed) {
  const auto gens = generators<T>();
  std::vector<T> matrix;
  matrix.reserve(static_cast<std::size_t>(rows * cols));
  for (std::int64_t r = 0; r < rows; ++r) {
    std::vector<T> row;
    const std::uint64_t row_seed = seed + static_cast<std::uint64_t>(r) * 0x9e3779b97f4a7c15ull;
    if (r == 0) {
      row.assign(static_cast<std::size_t>(cols), gens[0].make(1, row_seed)[0]);
    } else if (r == 1) {
      row = gens[0].make(cols, row_seed);
      std::sort(row.begin(), row.end(), [](const T& a, const T& b) { return order_image(a) < order_image(b); });
    } else if (r == 2) {
      row = nan_row<T>(cols, row_seed);
    } else {
      row = gens[static_cast<std::size_t>(r - 3) % gens.size()].make(cols, row_seed);
    }
    matrix.insert(matrix.end(), row.begin(), row.end());
  }
  return matrix;
}

/// The reference's per-row top k (rows * k values and positions within the row).
template <class T>
top_k_order<T> reference_top_k_batched(std::span<const T> matrix, std::int64_t rows, std::int64_t k, bool largest) {
  const auto count = static_cast<std::size_t>(rows * k);
  top_k_order<T> want{std::vector<T>(count), std::vector<std::int64_t>(count)};
  bkt::ref::top_k_batched<T, std::int64_t>(matrix, rows, k, want.values, want.positions,
                                           make_top_k_options(largest, true));
  return want;
}

/// One top_k_batched call against the reference (whose direction must be options.largest), row by
/// row; outputs poisoned rows * k + select_margin long. Without `with_values` (or `with_indices`)
/// that output is passed empty, which the call must accept and skip. `skip`: the matrix starts that
/// many elements into `input` (rows not aligned to 16 bytes).
template <class T, class Index>
void check_top_k_batched(std::span<const T> matrix, device_input<T>& input, std::int64_t rows, std::int64_t k,
                         const top_k_order<T>& want, const top_k_options& options, workspace& ws, cudaStream_t stream,
                         bool with_values = true, bool with_indices = true, std::size_t skip = 0) {
  SCOPED_TRACE("top_k_batched k=" + std::to_string(k) + " " + describe_options(options) + " " +
               std::to_string(8 * sizeof(Index)) + "-bit indices" + (with_values ? "" : ", no values") +
               (with_indices ? "" : ", no indices"));
  const std::int64_t cols = static_cast<std::int64_t>(matrix.size()) / rows;
  const auto count = static_cast<std::size_t>(rows * k);
  auto values = poisoned_buffer<T>(with_values ? rows * k + select_margin : 0, stream);
  auto indices = poisoned_buffer<Index>(with_indices ? rows * k + select_margin : 0, stream);
  bkt::top_k_batched<T, Index>(input.span().subspan(skip), rows, k, values.span(), indices.span(), ws, stream, options);
  const auto got_values = to_host(values);
  const auto got_indices = to_host(indices);
  EXPECT_TRUE(input.unchanged());
  if (with_values)
    EXPECT_TRUE(poison_intact<T>(std::span<const T>(got_values).subspan(count))) << "values past rows * k";
  if (with_indices)
    EXPECT_TRUE(poison_intact<Index>(std::span<const Index>(got_indices).subspan(count))) << "indices past rows * k";
  const std::vector<std::int64_t> got_positions(got_indices.begin(),
                                                got_indices.begin() + (with_indices ? count : std::size_t{0}));
  const auto row_k = static_cast<std::size_t>(k);
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::size_t at = static_cast<std::size_t>(r) * row_k;
    const auto same = matches_top_k<T>(
        matrix.subspan(static_cast<std::size_t>(r * cols), static_cast<std::size_t>(cols)),
        std::span<const T>(want.values).subspan(at, row_k),
        std::span<const std::int64_t>(want.positions).subspan(at, row_k), options.largest, options.sorted,
        with_values ? std::span<const T>(got_values).subspan(at, row_k) : std::span<const T>(),
        with_indices ? std::span<const std::int64_t>(got_positions).subspan(at, row_k) : std::span<const std::int64_t>());
    if (!same) {
      ADD_FAILURE() << "row " << r << " of " << rows << ": " << same.message();
      return;  // one failing row says enough
    }
  }
}

}  // namespace bkt::test
