// Distributed sort: the keys (or key-value pairs) spread over the ranks of a communicator, sorted
// as one sequence, each rank ending with one consecutive slice of the result.
//
// Order and stability: as bkt/radix_sort.hpp (integers numerically; floats in the total order
// -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN; descending reverses it). The global input is
// the concatenation of the ranks' inputs in rank order, and equal keys keep their global input
// order: the result is bit for bit the single-GPU stable sort of that concatenation. Rank r ends
// with the r-th slice: sort_result::count elements starting at global rank global_first.
//
// Balance: splitters drawn from a regular sample in the tuple order (key, rank, index) cut runs of
// equal keys by position, so all-equal, few-distinct and pre-sorted inputs spread like any other:
// no rank gets more than sort_capacity(n, N) <= about 1.02 n / N elements (ranks holding very
// different input sizes included). Every rank's outputs must hold sort_capacity(n, N, options)
// elements; a rank's input may be empty.
//
// Algorithm (bkt/dist/detail/sort_plan.hpp): a stable local radix sort; a regular sample of each
// sorted run, all-gathered; N - 1 splitters; each rank's counts before every splitter,
// all-gathered; the exchange in chunks (grouped ncclSend/ncclRecv on the communicator's side
// stream, sort_options::chunks), each chunk's runs merged stably on `stream` while the next one
// travels (pairwise cub::DeviceMerge, or a stable radix sort of their concatenation:
// sort_options::merge).
//
// Calls are collective (every rank, same order, same options) and synchronize `stream` three times
// (the host reads the ranks' records, the samples and the counts). A rank that fails its argument checks or runs out of
// memory makes every rank throw bkt::error before any data moves. Device memory; sizes int64.
// Key types: those of bkt/radix_sort.hpp; values: 4- or 8-byte trivially copyable types.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <span>
#include <type_traits>

#include "bkt/dist/communicator.hpp"
#include "bkt/dist/sort_options.hpp"
#include "bkt/dist/workspace.hpp"

namespace bkt::dist {

/// keys_out[0, result.count) = this rank's slice of the sorted whole; keys_out holds at least
/// sort_capacity(n, N, options) elements.
template <class Key>
sort_result sort_keys(const communicator& comm, std::span<const std::type_identity_t<Key>> keys_in,
                      std::span<Key> keys_out, workspace& ws, cudaStream_t stream, const sort_options& options = {});

namespace detail {
template <class Key, class Word>
sort_result sort_pairs(const communicator&, std::span<const Key>, std::span<const Word>, std::span<Key>,
                       std::span<Word>, workspace&, cudaStream_t, const sort_options&);
template <std::size_t Bytes>
using value_word = std::conditional_t<Bytes == 4, std::uint32_t, std::uint64_t>;
}  // namespace detail

/// As sort_keys, values_in[i] travelling with keys_in[i]; values_out as large as keys_out.
template <class Key, class Value>
sort_result sort_pairs(const communicator& comm, std::span<const std::type_identity_t<Key>> keys_in,
                       std::span<const std::type_identity_t<Value>> values_in, std::span<Key> keys_out,
                       std::span<Value> values_out, workspace& ws, cudaStream_t stream,
                       const sort_options& options = {}) {
  static_assert((sizeof(Value) == 4 || sizeof(Value) == 8) && std::is_trivially_copyable_v<Value>,
                "values: trivially copyable, 4 or 8 bytes");
  using word = detail::value_word<sizeof(Value)>;
  return detail::sort_pairs<Key, word>(comm, keys_in, {reinterpret_cast<const word*>(values_in.data()), values_in.size()},
                                       keys_out, {reinterpret_cast<word*>(values_out.data()), values_out.size()}, ws,
                                       stream, options);
}

/// Global argsort: indices_out[j] = the global input position (the rank's first global index plus
/// the local one) of the j-th key of this rank's slice; keys_out receives the keys unless it is
/// empty. Index: std::uint32_t (n <= 2^32) or std::int64_t.
template <class Key, class Index>
sort_result sort_indices(const communicator& comm, std::span<const std::type_identity_t<Key>> keys_in,
                         std::span<Key> keys_out, std::span<Index> indices_out, workspace& ws, cudaStream_t stream,
                         const sort_options& options = {});

}  // namespace bkt::dist
