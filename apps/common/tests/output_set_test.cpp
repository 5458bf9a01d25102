// output_set: all of a run's outputs or none, files before the summary, standard output last,
// inputs never replaced, and no temporary left by a failure or a signal.
#include "bkt_apps/output_set.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "bkt_apps/app_error.hpp"
#include "bkt_apps/numeric_io.hpp"
#include "bkt_apps_test/output_checks.hpp"
#include "bkt_apps_test/temp_dir.hpp"

namespace bkt::apps {
namespace {

using output_set_test = test::temp_dir_test;

/// Points standard output at `fd` until destroyed.
class stdout_redirect {
 public:
  explicit stdout_redirect(int fd) : saved_(::dup(STDOUT_FILENO)) {
    std::fflush(stdout);
    ::dup2(fd, STDOUT_FILENO);
  }
  ~stdout_redirect() {
    std::fflush(stdout);
    ::dup2(saved_, STDOUT_FILENO);
    ::close(saved_);
  }

 private:
  int saved_;
};

TEST_F(output_set_test, commit_all_shows_every_output) {
  {
    output_set outputs;
    outputs.add(path("a.bin")).write("a");
    outputs.add_summary(path("run.json")).write("{}\n");
    outputs.add(path("b.txt")).write("b");
    EXPECT_EQ(test::temporaries_in(dir_).size(), 3u);
    outputs.commit_all();
  }
  EXPECT_EQ(test::directory_snapshot(dir_),
            (std::map<std::string, std::string>{{"a.bin", "a"}, {"b.txt", "b"}, {"run.json", "{}\n"}}));
}

TEST_F(output_set_test, a_failure_before_commit_leaves_nothing_and_changes_nothing) {
  write_file("a.bin", "old a");
  write_file("run.json", "old json");
  {
    output_set outputs;
    outputs.add(path("a.bin")).write(std::string(3 << 20, 'x'));  // flushed into the temporary
    outputs.add(path("new.txt")).write("new");
    outputs.add_summary(path("run.json")).write("{}\n");
  }  // the run failed: commit_all() never came
  EXPECT_EQ(test::directory_snapshot(dir_),
            (std::map<std::string, std::string>{{"a.bin", "old a"}, {"run.json", "old json"}}));
  EXPECT_TRUE(test::temporaries_in(dir_).empty());
}

TEST_F(output_set_test, a_write_error_shows_before_anything_is_renamed) {
  // commit_all() finishes every output first: the summary's temporary, gone before its bytes
  // are flushed, fails the run with the data file not yet in place.
  std::filesystem::create_directory(path("json"));
  output_set outputs;
  outputs.add(path("data.txt")).write("data");
  outputs.add_summary(path("json/run.json")).write("{}");
  std::filesystem::rename(path("json"), path("moved"));
  EXPECT_THROW(outputs.commit_all(), app_error);
  EXPECT_FALSE(std::filesystem::exists(path("data.txt")));
}

TEST_F(output_set_test, an_unwritable_output_fails_when_added) {
  write_file("a.bin", "old a");
  try {
    output_set outputs;
    outputs.add(path("a.bin")).write("new a");
    outputs.add_summary(path("missing/run.json"));
    FAIL() << "no error";
  } catch (const app_error& e) {
    EXPECT_EQ(std::string(e.what()), path("missing/run.json") + ": cannot create: No such file or directory");
    EXPECT_EQ(e.code(), exit_bad_input);
  }
  EXPECT_EQ(test::directory_snapshot(dir_), (std::map<std::string, std::string>{{"a.bin", "old a"}}));
  EXPECT_TRUE(test::temporaries_in(dir_).empty());
}

TEST_F(output_set_test, files_are_renamed_before_the_summary) {
  // The summary, finished, has its directory moved away before commit_all(), so its rename
  // fails: the data file, renamed first, is in place by then.
  std::filesystem::create_directory(path("json"));
  output_set outputs;
  output_file& summary = outputs.add_summary(path("json/run.json"));  // added first, shown after the data
  summary.write("{}");
  summary.finish();
  outputs.add(path("data.txt")).write("data");
  std::filesystem::rename(path("json"), path("moved"));
  EXPECT_THROW(outputs.commit_all(), app_error);
  EXPECT_EQ(read_file(path("data.txt")), "data");
}

TEST_F(output_set_test, standard_output_gets_its_bytes_after_every_file) {
  int pipe_ends[2];
  ASSERT_EQ(::pipe(pipe_ends), 0);
  std::atomic<bool> files_in_place_at_first_byte{false};
  std::string received;
  std::thread reader([&] {
    char block[4096];
    for (ssize_t got; (got = ::read(pipe_ends[0], block, sizeof block)) > 0;) {
      if (received.empty())
        files_in_place_at_first_byte = std::filesystem::exists(path("a.txt")) && std::filesystem::exists(path("run.json"));
      received.append(block, static_cast<std::size_t>(got));
    }
  });
  {
    stdout_redirect redirect(pipe_ends[1]);
    ::close(pipe_ends[1]);
    output_set outputs;
    outputs.add("-").write("table\n");  // added first, shown last
    outputs.add(path("a.txt")).write("a");
    outputs.add_summary(path("run.json")).write("{}");
    outputs.commit_all();
  }  // the redirect ends: the write end closes and the reader sees the end
  reader.join();
  ::close(pipe_ends[0]);
  EXPECT_EQ(received, "table\n");
  EXPECT_TRUE(files_in_place_at_first_byte);
}

TEST_F(output_set_test, standard_output_of_a_failed_run_gets_nothing) {
  const int file = ::open(path("stdout").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  {
    stdout_redirect redirect(file);
    output_set outputs;
    outputs.add("-").write(std::string(3 << 20, 'x'));  // more than the buffer: held in a file
  }
  ::close(file);
  EXPECT_EQ(read_file(path("stdout")), "");
}

TEST_F(output_set_test, a_large_npy_on_standard_output_gets_its_header_patched) {
  // The count is unknown when the header is written; the held bytes can still be rewritten.
  const int file = ::open(path("stdout").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<std::uint32_t> values(1 << 19);  // 2 MiB: past the buffer
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<std::uint32_t>(i * 7);
  {
    stdout_redirect redirect(file);
    output_set outputs;
    output_file& out = outputs.add("-");
    EXPECT_TRUE(out.is_standard_output());
    EXPECT_TRUE(out.seekable());
    array_writer writer(out, byte_order::little, file_format::npy, dtype::u32);
    writer.write(std::span<const std::uint32_t>(values));
    writer.finish();
    outputs.commit_all();
  }
  ::close(file);
  input_options options;
  options.path = path("stdout");
  options.format = file_format::npy;
  const numeric_array back = read_array(options);
  ASSERT_EQ(back.size(), static_cast<std::int64_t>(values.size()));
  EXPECT_EQ(back.as<std::uint32_t>()[values.size() - 1], values.back());
}

TEST_F(output_set_test, overwrite_reaches_bytes_in_the_file_and_in_the_buffer) {
  {
    output_set outputs;
    output_file& out = outputs.add(path("a.bin"));
    out.write(std::string((1 << 20) - 2, 'a'));
    out.write("bbbb");  // flushes the a's; the b's stay buffered
    out.overwrite((1 << 20) - 4, "XXXXXX", 6);
    outputs.commit_all();
  }
  const std::string bytes = read_file(path("a.bin"));
  ASSERT_EQ(bytes.size(), (1u << 20) + 2);
  EXPECT_EQ(bytes.substr(bytes.size() - 8), "aaXXXXXX");
}

TEST_F(output_set_test, an_output_that_is_an_input_is_refused) {
  const std::string input = write_file("in.txt", "1\n2\n");
  ASSERT_EQ(::symlink("in.txt", path("link.txt").c_str()), 0);
  ASSERT_EQ(::link(input.c_str(), path("hard.txt").c_str()), 0);
  for (const std::string& output : {input, path("./in.txt"), path("link.txt"), path("hard.txt")}) {
    SCOPED_TRACE(output);
    output_set outputs;
    outputs.protect_input(input);
    try {
      outputs.add(output);
      FAIL() << "no error";
    } catch (const app_error& e) {
      EXPECT_EQ(e.code(), exit_usage);
      EXPECT_EQ(std::string(e.what()), output + ": is also an input of this run; an output never replaces an input");
    }
  }
  output_set outputs;  // the input named after the output
  outputs.add(input);
  EXPECT_THROW(outputs.protect_input(path("link.txt")), app_error);
  outputs.protect_input("-");            // standard input: nothing to protect
  outputs.protect_input(path("none"));  // not there: nothing to protect
  EXPECT_EQ(read_file(input), "1\n2\n");
}

TEST_F(output_set_test, one_place_for_two_outputs_is_refused) {
  output_set outputs;
  outputs.add(path("a.txt"));
  try {
    outputs.add(dir_.string() + "/./a.txt");
    FAIL() << "no error";
  } catch (const app_error& e) {
    EXPECT_EQ(e.code(), exit_usage);
    EXPECT_EQ(std::string(e.what()), dir_.string() + "/./a.txt: given for two outputs");
  }
  outputs.add("-");
  EXPECT_THROW(outputs.add_summary(""), app_error);  // standard output twice
  outputs.add("/dev/null");
  outputs.add("/dev/null");  // a device takes any number
  EXPECT_EQ(outputs.size(), 4u);
}

TEST_F(output_set_test, thousands_of_outputs_hold_no_descriptors) {
  // sssp writes a file per source: a run may hold more outputs than it may open files.
  rlimit saved{};
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &saved), 0);
  rlimit lowered = saved;
  lowered.rlim_cur = 64;
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &lowered), 0);
  {
    output_set outputs;
    for (int i = 0; i < 300; ++i) {
      const std::string number = std::to_string(i);
      output_file& out = outputs.add(path("d" + number + ".txt"));
      out.write(number);
      out.finish();
    }
    outputs.commit_all();
  }
  ::setrlimit(RLIMIT_NOFILE, &saved);
  EXPECT_EQ(read_file(path("d299.txt")), "299");
  EXPECT_EQ(entries().size(), 300u);
}

TEST_F(output_set_test, writing_after_finish_is_a_logic_error) {
  output_set outputs;
  output_file& out = outputs.add(path("a.txt"));
  out.write("a");
  out.finish();
  EXPECT_THROW(out.write("b"), std::logic_error);
}

TEST_F(output_set_test, a_fatal_signal_removes_the_temporaries) {
  write_file("a.txt", "old");
  for (const int signal_number : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) {
    SCOPED_TRACE(signal_number);
    // A shell starts background jobs with SIGINT ignored, and a signal the process was started
    // ignoring stays ignored (output_set.hpp): nothing to check for it here.
    struct sigaction current {};
    ::sigaction(signal_number, nullptr, &current);
    if (current.sa_handler == SIG_IGN) continue;
    const pid_t child = ::fork();
    if (child == 0) {
      output_set outputs;
      outputs.add(path("a.txt")).write(std::string(3 << 20, 'x'));
      outputs.add_summary(path("run.json")).write("{}");
      outputs.add(path("unwritten.bin"));
      if (test::temporaries_in(dir_).size() != 3) ::_exit(3);
      ::raise(signal_number);
      ::_exit(4);  // not reached: the signal ends the process
    }
    const test::signalled_run run = test::wait_for_ending(child);
    ASSERT_TRUE(run.killed_by_signal) << "exit code " << run.exit_code;
    EXPECT_EQ(run.signal, signal_number);
    EXPECT_TRUE(test::temporaries_in(dir_).empty());
    EXPECT_EQ(test::directory_snapshot(dir_), (std::map<std::string, std::string>{{"a.txt", "old"}}));
  }
}

}  // namespace
}  // namespace bkt::apps
