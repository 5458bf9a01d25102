// Outputs appear whole or not at all, with ordinary permissions.
#include "bkt_apps/output_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <thread>

#include "bkt_apps/numeric_io.hpp"
#include "bkt_apps_test/temp_dir.hpp"

namespace bkt::apps {
namespace {

using output_file_test = test::temp_dir_test;

TEST_F(output_file_test, commit_renames_into_place) {
  const std::string target = path("out.txt");
  {
    output_file file(target);
    file.write("hello ");
    file.write(std::string(3 << 20, 'x'));  // larger than the buffer
    file.write("\n");
    EXPECT_EQ(entries().size(), 1u);
    EXPECT_NE(entries()[0].find("out.txt.tmp."), std::string::npos);
    EXPECT_FALSE(std::filesystem::exists(target));
    file.commit();
  }
  EXPECT_EQ(entries(), std::vector<std::string>{"out.txt"});
  EXPECT_EQ(read_file(target).size(), 6u + (3u << 20) + 1u);
}

TEST_F(output_file_test, uncommitted_leaves_nothing_and_keeps_an_old_file) {
  const std::string target = write_file("out.txt", "old\n");
  {
    output_file file(target);
    file.write("new, but the run fails\n");
  }
  EXPECT_EQ(entries(), std::vector<std::string>{"out.txt"});
  EXPECT_EQ(read_file(target), "old\n");
}

TEST_F(output_file_test, permissions_follow_the_umask) {
  const mode_t old_mask = ::umask(022);
  {
    output_file file(path("out.bin"));
    file.commit();
  }
  ::umask(old_mask);
  struct stat info {};
  ASSERT_EQ(::stat(path("out.bin").c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0644u);
}

TEST_F(output_file_test, overwrite_patches_earlier_bytes) {
  output_file file(path("a.bin"));
  file.write("abcdef");
  file.overwrite(1, "XY", 2);
  file.write("g");
  file.commit();
  EXPECT_EQ(read_file(path("a.bin")), "aXYdefg");
}

TEST_F(output_file_test, unwritable_places_fail_with_the_name) {
  try {
    output_file file(path("missing-dir/out.txt"));
    FAIL() << "no error";
  } catch (const app_error& e) {
    EXPECT_EQ(std::string(e.what()), path("missing-dir/out.txt") + ": cannot create: No such file or directory");
  }
  try {
    output_file file(dir_.string());
    FAIL() << "no error";
  } catch (const app_error& e) {
    EXPECT_EQ(std::string(e.what()), dir_.string() + ": is a directory");
  }
}

TEST_F(output_file_test, writer_destroyed_without_finish_leaves_nothing) {
  output_options options;
  options.path = path("out.npy");
  {
    array_writer writer(options, file_format::npy, dtype::u32);
    writer.write(std::span<const std::uint32_t>(std::vector<std::uint32_t>{1, 2, 3}));
  }
  EXPECT_TRUE(entries().empty());
}

TEST_F(output_file_test, a_fifo_gets_the_bytes_at_commit_and_stays_a_fifo) {
  // Renaming a temporary over a device or pipe would replace it (think of /dev/null): the bytes
  // are held and written into it at commit().
  const std::string fifo = path("pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] { received = read_file(fifo); });
  {
    output_options options;
    options.path = fifo;
    array_writer writer(options, file_format::npy, dtype::u8);  // no count: header patched in the held bytes
    writer.write(std::span<const std::uint8_t>(std::vector<std::uint8_t>{7, 8}));
    writer.finish();
  }
  reader.join();
  EXPECT_EQ(received.size(), 128u + 2u);
  EXPECT_EQ(received.substr(128), "\x07\x08");
  struct stat info {};
  ASSERT_EQ(::lstat(fifo.c_str(), &info), 0);
  EXPECT_TRUE(S_ISFIFO(info.st_mode));
  EXPECT_EQ(entries(), std::vector<std::string>{"pipe"});
}

TEST_F(output_file_test, a_symbolic_link_keeps_pointing_at_the_new_file) {
  write_file("target.txt", "old\n");
  ASSERT_EQ(::symlink("target.txt", path("link.txt").c_str()), 0);
  output_file file(path("link.txt"));
  file.write("new\n");
  file.commit();
  EXPECT_TRUE(std::filesystem::is_symlink(path("link.txt")));
  EXPECT_EQ(read_file(path("target.txt")), "new\n");
  auto names = entries();
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"link.txt", "target.txt"}));
}

}  // namespace
}  // namespace bkt::apps
