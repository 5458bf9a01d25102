// bkt::ref: plain sequential multisplit and histograms, the references the GPU code is tested
// against and the CPU path of the host API. Same contracts as bkt/multisplit.hpp and
// bkt/histogram.hpp; bucket ids outside [0, num_buckets) go to the last bucket, as on the GPU.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace bkt::ref {

/// The bucket of `key`, clamped like the GPU code clamps it.
template <class Key, class BucketFn>
int clamped_bucket(const BucketFn& bucket_of, const Key& key, int num_buckets) {
  const unsigned bucket = static_cast<unsigned>(bucket_of(key));
  return bucket < static_cast<unsigned>(num_buckets) ? static_cast<int>(bucket) : num_buckets - 1;
}

/// Counting sort by bucket: offsets from a histogram, then one stable scatter. `emit(source,
/// destination)` moves element `source` to `destination`.
template <class Key, class BucketFn, class Emit>
void multisplit_positions(std::span<const Key> keys, std::span<std::int64_t> offsets, int num_buckets,
                          const BucketFn& bucket_of, Emit emit) {
  if (num_buckets < 1 || offsets.size() < static_cast<std::size_t>(num_buckets) + 1)
    throw std::invalid_argument("ref::multisplit: need num_buckets >= 1 and num_buckets + 1 offsets");
  std::vector<int> buckets(keys.size());
  std::vector<std::int64_t> next(static_cast<std::size_t>(num_buckets) + 1, 0);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    buckets[i] = clamped_bucket(bucket_of, keys[i], num_buckets);
    ++next[static_cast<std::size_t>(buckets[i]) + 1];
  }
  for (int b = 0; b < num_buckets; ++b) next[b + 1] += next[b];
  for (int b = 0; b <= num_buckets; ++b) offsets[b] = next[b];
  for (std::size_t i = 0; i < keys.size(); ++i) emit(i, next[buckets[i]]++);
}

template <class Key, class BucketFn>
void multisplit(std::span<const std::type_identity_t<Key>> keys_in, std::span<Key> keys_out,
                std::span<std::int64_t> offsets, int num_buckets, BucketFn bucket_of) {
  if (keys_out.size() < keys_in.size()) throw std::invalid_argument("ref::multisplit: output smaller than input");
  multisplit_positions<Key>(keys_in, offsets, num_buckets, bucket_of,
                            [&](std::size_t from, std::int64_t to) { keys_out[to] = keys_in[from]; });
}

template <class Key, class Value, class BucketFn>
void multisplit(std::span<const std::type_identity_t<Key>> keys_in, std::span<const std::type_identity_t<Value>> values_in,
                std::span<Key> keys_out, std::span<Value> values_out, std::span<std::int64_t> offsets,
                int num_buckets, BucketFn bucket_of) {
  if (values_in.size() != keys_in.size() || keys_out.size() < keys_in.size() || values_out.size() < keys_in.size())
    throw std::invalid_argument("ref::multisplit: sizes disagree");
  multisplit_positions<Key>(keys_in, offsets, num_buckets, bucket_of, [&](std::size_t from, std::int64_t to) {
    keys_out[to] = keys_in[from];
    values_out[to] = values_in[from];
  });
}

/// Index mode; keys_out may be empty.
template <class Key, class Index, class BucketFn>
void multisplit_indices(std::span<const std::type_identity_t<Key>> keys_in, std::span<Key> keys_out,
                        std::span<Index> indices_out, std::span<std::int64_t> offsets, int num_buckets,
                        BucketFn bucket_of) {
  if ((!keys_out.empty() && keys_out.size() < keys_in.size()) || indices_out.size() < keys_in.size())
    throw std::invalid_argument("ref::multisplit_indices: output smaller than input");
  multisplit_positions<Key>(keys_in, offsets, num_buckets, bucket_of, [&](std::size_t from, std::int64_t to) {
    if (!keys_out.empty()) keys_out[to] = keys_in[from];
    indices_out[to] = static_cast<Index>(from);
  });
}

/// counts[b] += 1 for each element's bin b < counts.size(); returns the number in bin counts.size()
/// (the "outside" bucket of bkt::even_bins and bkt::range_bins). Counts are overwritten.
template <class T, class BinFn>
std::int64_t histogram(std::span<const std::type_identity_t<T>> data, std::span<std::int64_t> counts, BinFn bin_of) {
  const int bins = static_cast<int>(counts.size());
  std::vector<std::int64_t> all(counts.size() + 1, 0);
  for (const T& x : data) ++all[clamped_bucket(bin_of, x, bins + 1)];
  for (int b = 0; b < bins; ++b) counts[b] = all[b];
  return all[bins];
}

/// Weighted: sums[b] = the weights of bin b's elements, added in input order in double; returns
/// the weight outside every bin.
template <class T, class W, class BinFn>
double histogram(std::span<const std::type_identity_t<T>> data, std::span<const std::type_identity_t<W>> weights,
                 std::span<double> sums, BinFn bin_of) {
  if (weights.size() != data.size()) throw std::invalid_argument("ref::histogram: weights and data differ in size");
  const int bins = static_cast<int>(sums.size());
  std::vector<double> all(sums.size() + 1, 0.0);
  for (std::size_t i = 0; i < data.size(); ++i) all[clamped_bucket(bin_of, data[i], bins + 1)] += weights[i];
  for (int b = 0; b < bins; ++b) sums[b] = all[b];
  return all[bins];
}

}  // namespace bkt::ref
