// Inputs of CUDA's 16-bit floats. Rounding each float generator's values keeps every shape of input
// (sorted runs, clusters, few distinct values, ...) and adds the collisions of a 16-bit format; the
// bit patterns are the format's own edges, drawn at random: ±0, ±inf, NaNs of both signs with
// several payloads, the smallest and largest denormals, the smallest and largest normals, ±1.
#include <cstring>
#include <random>

#include "generators.hpp"

namespace bkt::test {
namespace {

template <class Half>
std::vector<generator<Half>> rounded_generators(const std::vector<std::uint16_t>& specials, Half (*round)(float)) {
  std::vector<generator<Half>> out;
  for (const auto& g : generators<float>()) {
    if (g.name == "bit_patterns") {
      out.push_back({g.name, [specials](std::int64_t n, std::uint64_t s) {
                       std::mt19937_64 rng(s);
                       std::vector<Half> keys(static_cast<std::size_t>(n));
                       for (Half& key : keys) std::memcpy(&key, &specials[rng() % specials.size()], sizeof(Half));
                       return keys;
                     }});
    } else {
      out.push_back({g.name, [make = g.make, round](std::int64_t n, std::uint64_t s) {
                       const std::vector<float> values = make(n, s);
                       std::vector<Half> keys(values.size());
                       for (std::size_t i = 0; i < values.size(); ++i) keys[i] = round(values[i]);
                       return keys;
                     }});
    }
  }
  return out;
}

__half round_to_half(float x) { return __float2half_rn(x); }
__nv_bfloat16 round_to_bfloat16(float x) { return __float2bfloat16_rn(x); }

}  // namespace

template <>
std::vector<generator<__half>> generators<__half>() {
  return rounded_generators<__half>({0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0x7fff, 0xfe00, 0xfc01, 0x0001,
                                     0x03ff, 0x8001, 0x83ff, 0x0400, 0x8400, 0x7bff, 0xfbff, 0x3c00, 0xbc00},
                                    round_to_half);
}

template <>
std::vector<generator<__nv_bfloat16>> generators<__nv_bfloat16>() {
  return rounded_generators<__nv_bfloat16>({0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0x7f81, 0x7fff, 0xffc0, 0xff81,
                                            0x0001, 0x007f, 0x8001, 0x807f, 0x0080, 0x8080, 0x7f7f, 0xff7f, 0x3f80,
                                            0xbf80},
                                           round_to_bfloat16);
}

}  // namespace bkt::test
