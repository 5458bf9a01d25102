// The records every call gathers first: one verdict on every rank, naming the rank that failed or
// the parameter the ranks disagree on.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "bkt/dist/detail/agreement.hpp"
#include "bkt/error.hpp"

namespace {

using namespace bkt::dist::detail;

std::vector<std::int64_t> gather(const std::vector<call_record>& records) {
  std::vector<std::int64_t> words;
  for (const auto& r : records) {
    const auto w = r.words();
    words.insert(words.end(), w.begin(), w.end());
  }
  return words;
}

call_record record(std::int64_t items, std::int64_t k, failure status = failure::none) {
  call_record r;
  r.status = status;
  r.items = items;
  r.agreed = {4, k, 0, 0, 0};
  return r;
}

const std::array<const char*, 2> names = {"the element size", "k"};

/// The message every rank throws, or "" when none throws.
std::string verdict(const std::vector<call_record>& records, int rank) {
  try {
    check_agreement("call", gather(records), static_cast<int>(records.size()), rank, names, "my own failure");
  } catch (const bkt::error& e) {
    return e.what();
  }
  return "";
}

TEST(dist_agreement, healthy_ranks_give_sizes_and_starts) {
  const std::vector<call_record> records = {record(5, 3), record(0, 3), record(7, 3)};
  const auto result = check_agreement("call", gather(records), 3, 1, names, "");
  EXPECT_EQ(result.total, 12);
  EXPECT_EQ(result.starts, (std::vector<std::int64_t>{0, 5, 5}));
  EXPECT_EQ(result.items, (std::vector<std::int64_t>{5, 0, 7}));
}

TEST(dist_agreement, one_failed_rank_fails_every_rank) {
  const std::vector<call_record> records = {record(5, 3), record(1, 3, failure::out_of_memory), record(7, 3)};
  for (int rank = 0; rank < 3; ++rank) {
    const std::string message = verdict(records, rank);
    ASSERT_FALSE(message.empty()) << "rank " << rank << " did not throw";
    if (rank == 1)
      EXPECT_NE(message.find("my own failure"), std::string::npos) << message;
    else
      EXPECT_NE(message.find("rank 1 failed with out of device memory"), std::string::npos) << message;
  }
}

TEST(dist_agreement, differing_parameters_fail_every_rank) {
  const std::vector<call_record> records = {record(5, 3), record(1, 3), record(7, 4)};
  for (int rank = 0; rank < 3; ++rank) {
    const std::string message = verdict(records, rank);
    EXPECT_NE(message.find("disagree on k: rank 0 has 3, rank 2 has 4"), std::string::npos) << message;
  }
}

TEST(dist_agreement, classify_and_digest) {
  EXPECT_EQ(classify(bkt::error("x", cudaErrorMemoryAllocation, "f", 1)), failure::out_of_memory);
  EXPECT_EQ(classify(bkt::error("x", cudaErrorInvalidValue, "f", 1)), failure::device_error);
  EXPECT_EQ(classify(bkt::error("x", cudaSuccess, "f", 1)), failure::bad_argument);
  const std::vector<std::int64_t> a = {1, 2, 3}, b = {1, 3, 2};
  EXPECT_NE(digest(a), digest(b));
  EXPECT_EQ(digest(a), digest(std::vector<std::int64_t>{1, 2, 3}));
  EXPECT_GE(digest(a), 0);
}

}  // namespace
