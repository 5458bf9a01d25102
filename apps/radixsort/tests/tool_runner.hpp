// Runs the built bkt-radixsort with arguments, a file as its standard input, and captures its
// standard output, standard error and exit code; plus a per-test temporary directory.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace bkt::radixsort::test {

struct tool_result {
  int exit_code = -1;
  std::string out;  // standard output
  std::string err;  // standard error
};

inline std::string read_file(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_file(const std::string& file, const std::string& bytes) {
  std::ofstream out(file, std::ios::binary);
  out << bytes;
}

class tool_test : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/bkt-radixsort-test.XXXXXX";
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    std::filesystem::create_directory(dir_ / "io");  // the tool's own files go in here
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  /// A path in the tool's directory.
  std::string path(const std::string& name) const { return (dir_ / "io" / name).string(); }
  std::string write(const std::string& name, const std::string& bytes) const {
    write_file(path(name), bytes);
    return path(name);
  }
  /// Names in the tool's directory: what a run left behind.
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir_ / "io"))
      names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }

  /// Runs the tool; `stdin_file` empty means /dev/null.
  tool_result run(const std::vector<std::string>& args, const std::string& stdin_file = "") const {
    const std::string out_file = (dir_ / "stdout").string();
    const std::string err_file = (dir_ / "stderr").string();
    const pid_t child = ::fork();
    if (child == 0) {
      const auto redirect = [](const std::string& file, int flags, int fd) {
        const int opened = ::open(file.c_str(), flags, 0644);
        if (opened < 0 || ::dup2(opened, fd) < 0) ::_exit(126);
        ::close(opened);
      };
      redirect(stdin_file.empty() ? "/dev/null" : stdin_file, O_RDONLY, STDIN_FILENO);
      redirect(out_file, O_WRONLY | O_CREAT | O_TRUNC, STDOUT_FILENO);
      redirect(err_file, O_WRONLY | O_CREAT | O_TRUNC, STDERR_FILENO);
      std::vector<char*> argv;
      std::string exe = BKT_RADIXSORT_EXE;
      argv.push_back(exe.data());
      std::vector<std::string> copies = args;
      for (auto& arg : copies) argv.push_back(arg.data());
      argv.push_back(nullptr);
      ::execv(exe.c_str(), argv.data());
      ::_exit(127);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    tool_result result;
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    result.out = read_file(out_file);
    result.err = read_file(err_file);
    return result;
  }

  std::filesystem::path dir_;
};

}  // namespace bkt::radixsort::test
