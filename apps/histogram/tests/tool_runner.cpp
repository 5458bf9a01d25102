#include "tool_runner.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

namespace histogram_test {

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_file(const std::filesystem::path& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary);
  out << content;
}

tool_run run_histogram(const std::vector<std::string>& arguments, const std::string& standard_input, int columns) {
  // Files rather than pipes for the three streams: no deadlock however much the tool writes.
  char pattern[] = "/tmp/bkt-histogram-run-XXXXXX";
  const std::filesystem::path scratch = ::mkdtemp(pattern);
  const auto in_path = scratch / "stdin", out_path = scratch / "stdout", err_path = scratch / "stderr";
  write_file(in_path, standard_input);
  std::vector<std::string> argv_storage{BKT_HISTOGRAM_EXE};
  argv_storage.insert(argv_storage.end(), arguments.begin(), arguments.end());
  std::vector<char*> argv;
  for (auto& argument : argv_storage) argv.push_back(argument.data());
  argv.push_back(nullptr);

  tool_run run;
  const pid_t child = ::fork();
  if (child == 0) {
    const int in = ::open(in_path.c_str(), O_RDONLY);
    const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || out < 0 || err < 0) ::_exit(126);
    ::dup2(in, 0);
    ::dup2(out, 1);
    ::dup2(err, 2);
    ::setenv("COLUMNS", std::to_string(columns).c_str(), 1);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  run.out = read_file(out_path);
  run.err = read_file(err_path);
  std::filesystem::remove_all(scratch);
  return run;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> fields_of(const std::string& line) {
  std::vector<std::string> fields;
  std::istringstream in(line);
  for (std::string field; in >> field;) fields.push_back(field);
  return fields;
}

void tool_test::SetUp() {
  char pattern[] = "/tmp/bkt-histogram-test-XXXXXX";
  directory_ = ::mkdtemp(pattern);
}

void tool_test::TearDown() { std::filesystem::remove_all(directory_); }

std::vector<std::string> tool_test::listing() const {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(directory_)) names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

void tool_test::expect_failure(const tool_run& run, int code, const std::vector<std::string>& needles) {
  EXPECT_EQ(run.exit_code, code) << run.err;
  EXPECT_EQ(run.out, "");
  const auto lines = lines_of(run.err);
  ASSERT_EQ(lines.size(), 1u) << run.err;
  EXPECT_EQ(lines[0].rfind("bkt-histogram: ", 0), 0u) << lines[0];
  for (const auto& needle : needles) EXPECT_NE(lines[0].find(needle), std::string::npos) << lines[0] << "\nmissing: " << needle;
}

nlohmann::json tool_test::run_json(std::vector<std::string> arguments, const std::string& standard_input) {
  arguments.push_back("--json");
  arguments.push_back("-");
  const tool_run run = run_histogram(arguments, standard_input);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err, "");
  try {
    return nlohmann::json::parse(run.out);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not JSON: " << e.what() << "\n" << run.out;
    return nlohmann::json::object();
  }
}

}  // namespace histogram_test
