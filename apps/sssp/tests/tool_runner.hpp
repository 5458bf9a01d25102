// Runs the built bkt-sssp with arguments, a file as its standard input, and captures its
// standard output, standard error and exit code; plus a per-test temporary directory and the
// paths of the sample graphs.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace bkt::sssp::test {

/// A sample graph of data/graphs/ (BKT_DATA_DIR).
inline std::string data_graph(const std::string& name) { return std::string(BKT_DATA_DIR) + "/graphs/" + name; }

/// One line of the summary table, its fields as printed.
struct summary_row {
  std::string source, reached, checksum, max_distance, milliseconds, gteps, algorithm;
};

/// The rows of the summary table in `text` (the lines between the header and the "graph:" line).
inline std::vector<summary_row> summary_rows(const std::string& text) {
  std::vector<summary_row> rows;
  std::istringstream lines(text);
  bool in_table = false;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    summary_row row;
    fields >> row.source;
    if (row.source == "source") {
      in_table = true;
      continue;
    }
    if (!in_table || row.source == "graph:") {
      in_table = false;
      continue;
    }
    fields >> row.reached >> row.checksum >> row.max_distance >> row.milliseconds >> row.gteps >> row.algorithm;
    rows.push_back(row);
  }
  return rows;
}

/// The summary's last line, "graph: ...", or "" when there is none.
inline std::string graph_line(const std::string& text) {
  const std::size_t at = text.rfind("graph: ");
  return at == std::string::npos ? std::string() : text.substr(at, text.find('\n', at) - at);
}

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
    std::string pattern = std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/bkt-sssp-test.XXXXXX";
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

  /// Runs the tool; `stdin_file` empty means /dev/null; `environment` holds "NAME=VALUE" entries
  /// set in the child (CUDA_VISIBLE_DEVICES= hides every GPU).
  tool_result run(const std::vector<std::string>& args, const std::string& stdin_file = "",
                  const std::vector<std::string>& environment = {}) const {
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
      for (const std::string& entry : environment) {
        const std::size_t equals = entry.find('=');
        ::setenv(entry.substr(0, equals).c_str(), entry.substr(equals + 1).c_str(), 1);
      }
      std::vector<char*> argv;
      std::string exe = BKT_SSSP_EXE;
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

}  // namespace bkt::sssp::test
