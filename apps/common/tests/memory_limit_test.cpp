// --max-memory sizes and the early refusal every tool uses before a large allocation.
#include <gtest/gtest.h>

#include "bkt_apps/app_error.hpp"
#include "bkt_apps/cli.hpp"
#include "bkt_apps/memory_limit.hpp"

namespace {

using bkt::apps::parse_size;

TEST(memory_limit, parses_sizes_with_binary_suffixes) {
  EXPECT_EQ(parse_size("100000"), 100000);
  EXPECT_EQ(parse_size("0"), 0);
  EXPECT_EQ(parse_size("2K"), 2048);
  EXPECT_EQ(parse_size("512M"), 512LL << 20);
  EXPECT_EQ(parse_size("2G"), 2LL << 30);
  EXPECT_EQ(parse_size("2g"), 2LL << 30);
  EXPECT_EQ(parse_size("2GB"), 2LL << 30);
  EXPECT_EQ(parse_size("2GiB"), 2LL << 30);
  EXPECT_EQ(parse_size("1.5T"), 3LL << 39);
  EXPECT_EQ(parse_size("7b"), 7);
}

TEST(memory_limit, refuses_malformed_sizes) {
  for (const char* text : {"", "G", "-1G", "2X", "2GG", "1e3", "nan", "2 G", "99999999999T"})
    EXPECT_FALSE(parse_size(text).has_value()) << text;
}

TEST(memory_limit, formats_sizes_for_messages) {
  EXPECT_EQ(bkt::apps::format_size(900), "900 bytes");
  EXPECT_EQ(bkt::apps::format_size(2'400'000'000), "2.40 GB");
  EXPECT_EQ(bkt::apps::format_size(16'800'000'000), "16.8 GB");
}

TEST(memory_limit, the_budget_is_max_memory_when_given_else_what_the_machine_has) {
  bkt::apps::common_flags flags;
  EXPECT_GT(bkt::apps::host_memory_budget(flags), 0);
  flags.max_memory = 12345;
  EXPECT_EQ(bkt::apps::host_memory_budget(flags), 12345);
}

TEST(memory_limit, refuses_with_one_line_naming_the_subject) {
  EXPECT_NO_THROW(bkt::apps::require_host_memory(1000, 1000, "g.txt", "the graph"));
  try {
    bkt::apps::require_host_memory(1'000'000, 16'800'000'000, "g.txt", "vertex 2147483648");
    FAIL() << "no error";
  } catch (const bkt::apps::app_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "g.txt: vertex 2147483648 needs 16.8 GB of host memory, more than the 1.00 MB available (--max-memory)");
    EXPECT_EQ(e.code(), bkt::apps::exit_bad_input);
  }
}

}  // namespace
