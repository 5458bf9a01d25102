// How bkt-sssp spreads its sources over mpirun ranks: contiguous blocks, in order, covering the
// list once, sizes differing by at most one, rank 0's never empty.
#include <gtest/gtest.h>

#include "run_sources.hpp"

namespace bkt::sssp::tool {
namespace {

TEST(rank_blocks_test, cover_the_list_in_order) {
  for (std::int64_t sources : {1, 2, 3, 7, 31, 32, 33, 1000})
    for (int ranks : {1, 2, 3, 8, 40}) {
      SCOPED_TRACE("sources " + std::to_string(sources) + " ranks " + std::to_string(ranks));
      std::int64_t next = 0, smallest = sources, largest = 0;
      for (int rank = 0; rank < ranks; ++rank) {
        const source_block block = block_of_rank(sources, rank, ranks);
        EXPECT_EQ(block.begin, next);
        EXPECT_LE(block.begin, block.end);
        smallest = std::min(smallest, block.end - block.begin);
        largest = std::max(largest, block.end - block.begin);
        next = block.end;
      }
      EXPECT_EQ(next, sources);
      EXPECT_LE(largest - smallest, 1);
      EXPECT_GT(block_of_rank(sources, 0, ranks).end, 0);
    }
}

TEST(rank_blocks_test, one_rank_takes_all) {
  const source_block block = block_of_rank(5, 0, 1);
  EXPECT_EQ(block.begin, 0);
  EXPECT_EQ(block.end, 5);
}

TEST(rank_blocks_test, extra_sources_go_to_the_first_ranks) {
  EXPECT_EQ(block_of_rank(7, 0, 3).end, 3);
  EXPECT_EQ(block_of_rank(7, 1, 3).begin, 3);
  EXPECT_EQ(block_of_rank(7, 1, 3).end, 5);
  EXPECT_EQ(block_of_rank(7, 2, 3).end, 7);
  EXPECT_EQ(block_of_rank(1, 1, 3).begin, block_of_rank(1, 1, 3).end);
}

}  // namespace
}  // namespace bkt::sssp::tool
