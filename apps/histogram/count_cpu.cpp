// The CPU path: the library's reference histogram, run chunk by chunk, totals kept here.
#include <cstdint>

#include "bin_counter.hpp"
#include "bkt/buckets.hpp"
#include "bkt/ref/multisplit.hpp"

namespace bkt::apps::histogram {
namespace {

template <class T>
class cpu_counter final : public bin_counter<T> {
 public:
  cpu_counter(const bin_spec<T>& spec, bool weighted) : spec_(spec), weighted_(weighted) {
    const auto bins = static_cast<std::size_t>(spec.bins);
    if (weighted) {
      this->sums.assign(bins, 0.0);
      chunk_sums_.assign(bins, 0.0);
    } else {
      this->counts.assign(bins, 0);
      chunk_counts_.assign(bins, 0);
    }
  }

  void add(std::span<const T> data, std::span<const double> weights) override {
    if (spec_.even)
      add_with(data, weights, bkt::even_bins<T>::make(spec_.lo, spec_.hi, spec_.bins, spec_.precision));
    else
      add_with(data, weights, bkt::range_bins<T>{spec_.edges.data(), spec_.bins});
  }

  void finish() override {}

 private:
  // ref::histogram overwrites its output, so each chunk counts into scratch that is then added.
  template <class BinFn>
  void add_with(std::span<const T> data, std::span<const double> weights, const BinFn& bin_of) {
    if (weighted_) {
      this->outside_weight += bkt::ref::histogram<T, double>(data, weights, chunk_sums_, bin_of);
      for (std::size_t bin = 0; bin < chunk_sums_.size(); ++bin) this->sums[bin] += chunk_sums_[bin];
    } else {
      this->outside_count += bkt::ref::histogram<T>(data, chunk_counts_, bin_of);
      for (std::size_t bin = 0; bin < chunk_counts_.size(); ++bin) this->counts[bin] += chunk_counts_[bin];
    }
  }

  bin_spec<T> spec_;
  bool weighted_;
  std::vector<std::int64_t> chunk_counts_;
  std::vector<double> chunk_sums_;
};

}  // namespace

template <class T>
std::unique_ptr<bin_counter<T>> make_cpu_counter(const bin_spec<T>& spec, bool weighted) {
  return std::make_unique<cpu_counter<T>>(spec, weighted);
}

#define BKT_HISTOGRAM_INSTANTIATE(T) \
  template std::unique_ptr<bin_counter<T>> make_cpu_counter<T>(const bin_spec<T>&, bool);
BKT_FOR_EACH_HISTOGRAM_TYPE(BKT_HISTOGRAM_INSTANTIATE)
#undef BKT_HISTOGRAM_INSTANTIATE

}  // namespace bkt::apps::histogram
