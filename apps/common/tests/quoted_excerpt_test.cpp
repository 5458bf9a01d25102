// quoted_excerpt: what a message may echo of input bytes.
#include <gtest/gtest.h>

#include <string>

#include "bkt_apps/app_error.hpp"

namespace bkt::apps {
namespace {

TEST(quoted_excerpt, plain_text_is_quoted) {
  EXPECT_EQ(quoted_excerpt("12.5"), "'12.5'");
  EXPECT_EQ(quoted_excerpt(""), "''");
}

TEST(quoted_excerpt, control_bytes_are_escaped) {
  EXPECT_EQ(quoted_excerpt("a\nb\tc\rd"), "'a\\nb\\tc\\rd'");
  EXPECT_EQ(quoted_excerpt(std::string("\x1b[2J", 4)), "'\\x1b[2J'");
  EXPECT_EQ(quoted_excerpt(std::string("x\0y", 3)), "'x\\x00y'");
  EXPECT_EQ(quoted_excerpt("\x7f"), "'\\x7f'");
}

TEST(quoted_excerpt, bytes_above_ascii_are_escaped) {
  EXPECT_EQ(quoted_excerpt("\xc2\x9b"), "'\\xc2\\x9b'");  // U+009B, the C1 CSI
  EXPECT_EQ(quoted_excerpt("\xff"), "'\\xff'");
}

TEST(quoted_excerpt, quote_and_backslash_are_escaped) {
  EXPECT_EQ(quoted_excerpt("it's a\\b"), "'it\\'s a\\\\b'");
}

TEST(quoted_excerpt, long_text_is_cut_with_its_length) {
  const std::string text(100, 'a');
  EXPECT_EQ(quoted_excerpt(text, 4), "'aaaa'... (100 bytes)");
  EXPECT_EQ(quoted_excerpt(text), "'" + std::string(64, 'a') + "'... (100 bytes)");
  EXPECT_EQ(quoted_excerpt("abcd", 4), "'abcd'");
  EXPECT_EQ(quoted_excerpt("abcde", 4), "'abcd'... (5 bytes)");
  EXPECT_EQ(quoted_excerpt("abc", 0), "''... (3 bytes)");
}

}  // namespace
}  // namespace bkt::apps
