// What the bkt::dist GPU tests share: the communicator of the run (made once by main.cu), this
// rank's part of a global input, the sizes to sweep, and an MPI check that all ranks agree.
//
// Every rank runs the same tests in the same order with the same seed (main.cu broadcasts it), so
// the collective calls match. Tests use EXPECT_* only around collective calls: an ASSERT that
// returns early on one rank would leave the others waiting.
#pragma once

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bkt/dist/communicator.hpp"
#include "layouts.hpp"
#include "support/checks.hpp"
#include "support/generators.hpp"

namespace bkt::test::dist {

/// The run's communicator; null when this machine has no usable GPU.
bkt::dist::communicator* communicator_or_null();

inline bkt::dist::communicator& comm() { return *communicator_or_null(); }

/// Sizes each sweep runs: 0, 1, 33, 4097 and 65537; `large` adds an odd 3 Mi + 12345. Quick mode
/// (BKT_TEST_MAX_SIZE, the sanitizer runs) keeps 0, 1, 33 and 4097.
inline std::vector<std::int64_t> dist_sizes(bool large = false) {
  std::vector<std::int64_t> sizes = {0, 1, 33, 4097};
  if (!quick_mode()) sizes.push_back(65537);
  if (large && !quick_mode()) sizes.push_back(3 * (std::int64_t{1} << 20) + 12345);
  return sizes;
}

/// Millions of elements take time to make and check on the host: at those sizes the sweeps keep
/// the generators and layouts that stress the algorithms most.
inline bool worth_running(std::int64_t n, const std::string& generator, const std::string& layout) {
  if (n < (std::int64_t{1} << 20)) return true;
  const bool hard_input = generator == "uniform" || generator == "all_equal" || generator == "sixteen_distinct" ||
                          generator == "sorted" || generator == "reverse_sorted" || generator == "bit_patterns";
  return hard_input && (layout == "even" || layout == "one_heavy");
}

/// This rank's part of `all` under `sizes`.
template <class T>
std::vector<T> my_part(const std::vector<T>& all, const std::vector<std::int64_t>& sizes, int rank) {
  const auto starts = starts_of(sizes);
  return std::vector<T>(all.begin() + starts[rank], all.begin() + starts[rank] + sizes[rank]);
}

/// Every rank's value of `mine`, gathered by MPI (for checks across ranks).
inline std::vector<std::int64_t> all_ranks(std::int64_t mine) {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<std::int64_t> all(static_cast<std::size_t>(size));
  MPI_Allgather(&mine, 1, MPI_INT64_T, all.data(), 1, MPI_INT64_T, MPI_COMM_WORLD);
  return all;
}

}  // namespace bkt::test::dist

/// Skips (on every rank alike) when the run has no communicator, or fails under
/// BKT_REQUIRE_GPU_TESTS=1.
#define BKT_REQUIRE_DIST()                                                                       \
  do {                                                                                           \
    if (::bkt::test::dist::communicator_or_null() == nullptr) {                                  \
      if (::bkt::test::gpu_tests_required()) FAIL() << "no communicator (no usable GPU)";        \
      GTEST_SKIP() << "no communicator (no usable GPU)";                                         \
    }                                                                                            \
  } while (0)
