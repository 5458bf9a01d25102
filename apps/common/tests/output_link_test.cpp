// output_set::add_link: a symbolic link shown with the files, after them, or not at all; an old
// entry of its name replaced rather than followed; inputs never replaced; no temporary left.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>

#include "bkt_apps/app_error.hpp"
#include "bkt_apps/output_set.hpp"
#include "bkt_apps_test/output_checks.hpp"
#include "bkt_apps_test/temp_dir.hpp"

namespace bkt::apps {
namespace {

using output_link_test = test::temp_dir_test;
namespace fs = std::filesystem;

TEST_F(output_link_test, the_link_appears_with_the_files_and_names_its_target) {
  {
    output_set outputs;
    output_file& image = outputs.add(path("p-image.fits"));
    image.write("pixels");
    const output_link& link = outputs.add_link(path("p-restored.fits"), image);
    EXPECT_EQ(link.target(), "p-image.fits");  // beside its target: the bare name
    EXPECT_EQ(test::temporaries_in(dir_).size(), 2u);
    EXPECT_FALSE(fs::exists(fs::symlink_status(path("p-restored.fits"))));
    outputs.commit_all();
  }
  EXPECT_TRUE(fs::is_symlink(path("p-restored.fits")));
  EXPECT_EQ(fs::read_symlink(path("p-restored.fits")), "p-image.fits");
  EXPECT_EQ(read_file(path("p-restored.fits")), "pixels");
  EXPECT_TRUE(test::temporaries_in(dir_).empty());
}

TEST_F(output_link_test, a_failure_before_commit_leaves_the_old_entry) {
  write_file("p-restored.fits", "old restored");
  {
    output_set outputs;
    output_file& image = outputs.add(path("p-image.fits"));
    image.write("pixels");
    outputs.add_link(path("p-restored.fits"), image);
  }  // the run failed: commit_all() never came
  EXPECT_EQ(test::directory_snapshot(dir_), (std::map<std::string, std::string>{{"p-restored.fits", "old restored"}}));
  EXPECT_TRUE(test::temporaries_in(dir_).empty());
}

TEST_F(output_link_test, an_old_link_is_replaced_not_followed) {
  // What the last run left: p-restored.fits -> p-image.fits. The new run writes p-image.fits
  // again; the old link leads there but is no second output of that place.
  write_file("p-image.fits", "old pixels");
  fs::create_symlink("p-image.fits", path("p-restored.fits"));
  {
    output_set outputs;
    output_file& image = outputs.add(path("p-image.fits"));
    image.write("new pixels");
    outputs.add_link(path("p-restored.fits"), image);
    outputs.commit_all();
  }
  EXPECT_EQ(fs::read_symlink(path("p-restored.fits")), "p-image.fits");
  EXPECT_EQ(read_file(path("p-restored.fits")), "new pixels");
  EXPECT_TRUE(test::temporaries_in(dir_).empty());
}

TEST_F(output_link_test, a_link_never_replaces_an_input) {
  const std::string input = write_file("p-restored.fits", "an input");
  for (const bool protect_first : {true, false}) {
    SCOPED_TRACE(protect_first);
    output_set outputs;
    output_file& image = outputs.add(path("p-image.fits"));
    try {
      if (protect_first) outputs.protect_input(input);
      outputs.add_link(path("p-restored.fits"), image);
      if (!protect_first) outputs.protect_input(input);
      FAIL() << "no error";
    } catch (const app_error& e) {
      EXPECT_EQ(e.code(), exit_usage);
      EXPECT_EQ(std::string(e.what()), input + ": is also an input of this run; an output never replaces an input");
    }
  }
  EXPECT_EQ(read_file(input), "an input");
  EXPECT_TRUE(test::temporaries_in(dir_).empty());
}

TEST_F(output_link_test, a_place_taken_by_another_output_is_refused) {
  output_set outputs;
  output_file& image = outputs.add(path("p-image.fits"));
  EXPECT_THROW(outputs.add_link(path("p-image.fits"), image), app_error);
  outputs.add_link(path("p-restored.fits"), image);
  try {
    outputs.add(path("p-restored.fits"));
    FAIL() << "no error";
  } catch (const app_error& e) {
    EXPECT_EQ(e.code(), exit_usage);
    EXPECT_EQ(std::string(e.what()), path("p-restored.fits") + ": given for two outputs");
  }
}

TEST_F(output_link_test, an_unwritable_place_fails_when_added) {
  output_set outputs;
  output_file& image = outputs.add(path("p-image.fits"));
  try {
    outputs.add_link(path("missing/p-restored.fits"), image);
    FAIL() << "no error";
  } catch (const app_error& e) {
    EXPECT_EQ(std::string(e.what()), path("missing/p-restored.fits") + ": cannot create: No such file or directory");
    EXPECT_EQ(e.code(), exit_bad_input);
  }
  fs::create_directory(path("p-restored.fits"));
  EXPECT_THROW(outputs.add_link(path("p-restored.fits"), image), app_error);
}

TEST_F(output_link_test, a_fatal_signal_removes_the_temporary_link) {
  struct sigaction current {};
  ::sigaction(SIGTERM, nullptr, &current);
  if (current.sa_handler == SIG_IGN) GTEST_SKIP() << "SIGTERM is ignored in this process";
  const pid_t child = ::fork();
  if (child == 0) {
    output_set outputs;
    output_file& image = outputs.add(path("p-image.fits"));
    outputs.add_link(path("p-restored.fits"), image);
    if (test::temporaries_in(dir_).size() != 2) ::_exit(3);
    ::raise(SIGTERM);
    ::_exit(4);  // not reached: the signal ends the process
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status)) << "exit code " << WEXITSTATUS(status);
  EXPECT_TRUE(test::temporaries_in(dir_).empty());
  EXPECT_TRUE(entries().empty());
}

}  // namespace
}  // namespace bkt::apps
