#include "cpu/main_lobe.hpp"

#include <algorithm>
#include <cmath>

#include "deconvolve.hpp"

namespace bkt::clean::cpu {

std::vector<std::uint8_t> main_lobe(const image& psf) {
  std::vector<std::uint8_t> in_lobe(static_cast<std::size_t>(psf.size()), 0);
  if (psf.size() == 0) return in_lobe;
  const std::int64_t centre = psf_centre(psf.height) * psf.width + psf_centre(psf.width);
  if (!(psf.pixels[centre] > 0)) return in_lobe;

  // Breadth-first flood; `frontier` doubles as the queue.
  std::vector<std::int64_t> frontier{centre};
  in_lobe[centre] = 1;
  for (std::size_t next = 0; next < frontier.size(); ++next) {
    const std::int64_t index = frontier[next];
    const std::int64_t x = index % psf.width;
    const std::int64_t y = index / psf.width;
    const float value = psf.pixels[index];
    const auto visit = [&](std::int64_t neighbour) {
      const float neighbour_value = psf.pixels[neighbour];
      if (in_lobe[neighbour] == 0 && neighbour_value > 0 && neighbour_value <= value) {
        in_lobe[neighbour] = 1;
        frontier.push_back(neighbour);
      }
    };
    if (x > 0) visit(index - 1);
    if (x + 1 < psf.width) visit(index + 1);
    if (y > 0) visit(index - psf.width);
    if (y + 1 < psf.height) visit(index + psf.width);
  }
  return in_lobe;
}

}  // namespace bkt::clean::cpu

namespace bkt::clean {

double max_sidelobe(const image& psf) {
  const std::vector<std::uint8_t> in_lobe = cpu::main_lobe(psf);
  float largest = 0;
  for (std::int64_t i = 0; i < psf.size(); ++i)
    if (in_lobe[i] == 0) largest = std::max(largest, std::fabs(psf.pixels[i]));
  return largest;
}

}  // namespace bkt::clean
