// The CPU sort step: bkt::host's CPU path, a stable radix sort on every core (the order the GPU
// sort defines), sorting each chunk in place.
#include <cstdint>

#include "bkt/types.hpp"
#include "bkt_apps/stopwatch.hpp"
#include "chunk_sorter.hpp"

namespace bkt::radixsort {
namespace {

template <class Key>
class cpu_sorter final : public chunk_sorter<Key> {
 public:
  explicit cpu_sorter(const radix_sort_options& options) : options_(options) {}

  void sort(std::span<const Key> keys_in, std::span<Key> keys_out, std::span<std::int64_t> indices_out,
            sort_times& times) override {
    const bkt::apps::stopwatch start;
    if (indices_out.empty())
      host::radix_sort_keys<Key>(keys_in, keys_out, options_, host::backend::cpu);
    else
      host::radix_sort_indices<Key, std::int64_t>(keys_in, keys_out, indices_out, options_, host::backend::cpu);
    times.sort += start.seconds();
  }

 private:
  radix_sort_options options_;
};

}  // namespace

template <class Key>
std::unique_ptr<chunk_sorter<Key>> make_cpu_sorter(const radix_sort_options& options) {
  return std::make_unique<cpu_sorter<Key>>(options);
}

#define BKT_RADIXSORT_INSTANTIATE(Key) \
  template std::unique_ptr<chunk_sorter<Key>> make_cpu_sorter<Key>(const radix_sort_options&);
BKT_FOR_EACH_KEY_TYPE(BKT_RADIXSORT_INSTANTIATE)
BKT_RADIXSORT_INSTANTIATE(__half)  // the tools' f16

}  // namespace bkt::radixsort
