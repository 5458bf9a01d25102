// Input generators and sizes shared by every test: the adversarial key sets the style guide names.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace bkt::test {

/// The seed of this run: BKT_TEST_SEED when set, else fresh each run (printed by each test).
std::uint64_t seed();

/// 0, 1, 31, 32, 33, 1023, 1024, 1025, tile edges, 2^20 + 7 and a large odd size; capped by
/// BKT_TEST_MAX_SIZE (the sanitizer runs set it, since they are ~100x slower), which also trims
/// the list to 0, 1, 33, 1025, 4097 and 16387.
std::vector<std::int64_t> sizes();

/// For tests that multiply the sizes by other loops: sizes(), or in quick mode only 33 and 4097 (a
/// partial warp, a partial tile), so that racecheck gets through them.
std::vector<std::int64_t> loop_sizes();

/// True under BKT_TEST_MAX_SIZE (sanitizer runs): tests also trim their other loops.
bool quick_mode();

template <class T>
struct generator {
  std::string name;
  std::function<std::vector<T>(std::int64_t n, std::uint64_t seed)> make;
};

/// uniform, normal, all_equal, two_values, sixteen_distinct, sorted, reverse_sorted, sawtooth, zipf,
/// clustered, bit_patterns (floats: ±0, ±inf, NaNs, denormals, extreme normals; integers: min/max),
/// organ_pipe (ascending to the middle, then descending) and sampling_adversary (a quarter of the
/// elements exactly the median value, most of the rest in four tight clusters far apart, a few
/// spread thinly over a huge range: random splitters fall badly). Tests find one by name; the
/// order is fixed, and uniform stays first.
template <class T>
std::vector<generator<T>> generators();

/// CUDA's 16-bit floats (half_generators.cpp): each float generator's values rounded to the format,
/// under the same names, except bit_patterns, which draws the format's own special values.
template <>
std::vector<generator<__half>> generators<__half>();
template <>
std::vector<generator<__nv_bfloat16>> generators<__nv_bfloat16>();

/// What the sweeps over every generator iterate: all of generators(), or in quick mode (sanitizer
/// runs) uniform, all_equal, zipf and bit_patterns, which still reach every kernel path.
template <class T>
std::vector<generator<T>> sweep_generators();

/// Uniform bits: flags for select_flagged with about `percent_kept` percent set.
std::vector<std::uint8_t> random_flags(std::int64_t n, int percent_kept, std::uint64_t seed);

}  // namespace bkt::test
