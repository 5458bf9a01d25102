// mad_sigma (deconvolve.hpp): a noise estimate that the sources left in the residual barely move.
// 1.4826 * MAD is sigma for Gaussian noise. The median of an even count is the mean of the two
// middle values; no candidate pixel gives 0.
#include <algorithm>
#include <cmath>
#include <vector>

#include "cpu/candidate_pixels.hpp"
#include "deconvolve.hpp"

namespace bkt::clean {
namespace {

double median_in_place(std::vector<double>& values) {
  const std::size_t middle = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(middle), values.end());
  const double upper = values[middle];
  if (values.size() % 2 == 1) return upper;
  // After nth_element the lower half holds the smaller values; its largest is the other middle.
  const double lower = *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(middle));
  return (lower + upper) / 2;
}

}  // namespace

double mad_sigma(const image& residual, const clean_params& params) {
  const std::vector<std::uint8_t> candidates = cpu::candidate_pixels(residual, params);
  std::vector<double> values;
  for (std::int64_t i = 0; i < residual.size(); ++i)
    if (candidates[i] == 1) values.push_back(residual.pixels[i]);
  if (values.empty()) return 0;
  const double median = median_in_place(values);
  for (double& value : values) value = std::fabs(value - median);
  return 1.4826 * median_in_place(values);
}

}  // namespace bkt::clean
