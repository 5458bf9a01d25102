#include "bkt_apps_test/tool_runner.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <sstream>

#include "bkt_apps_test/temp_dir.hpp"

extern char** environ;

namespace bkt::apps::test {
namespace {

// The test's environment with `overrides` ("NAME=VALUE") replacing or adding entries. Built
// before fork: the child only calls what is safe there.
std::vector<std::string> merged_environment(const std::vector<std::string>& overrides) {
  std::vector<std::string> entries;
  const auto name_of = [](const std::string& entry) { return entry.substr(0, entry.find('=')); };
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string text = *entry;
    bool replaced = false;
    for (const std::string& override_entry : overrides) replaced = replaced || name_of(override_entry) == name_of(text);
    if (!replaced) entries.push_back(text);
  }
  entries.insert(entries.end(), overrides.begin(), overrides.end());
  return entries;
}

std::vector<char*> pointers_to(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (std::string& text : strings) pointers.push_back(text.data());
  pointers.push_back(nullptr);
  return pointers;
}

}  // namespace

tool_run run_tool(const std::string& exe, const std::vector<std::string>& arguments, const tool_setup& setup) {
  const temp_dir streams("bkt-tool-run");
  const std::string in_path = setup.standard_input ? (streams.path() / "stdin").string()
                              : setup.standard_input_file.empty() ? std::string("/dev/null")
                                                                  : setup.standard_input_file;
  if (setup.standard_input) write_file(in_path, *setup.standard_input);
  const std::string out_path = (streams.path() / "stdout").string();
  const std::string err_path = (streams.path() / "stderr").string();
  std::vector<std::string> argument_storage{exe};
  argument_storage.insert(argument_storage.end(), arguments.begin(), arguments.end());
  const std::vector<char*> argv = pointers_to(argument_storage);
  std::vector<std::string> environment_storage = merged_environment(setup.environment);
  const std::vector<char*> envp = pointers_to(environment_storage);

  const pid_t child = ::fork();
  if (child == 0) {
    const auto redirect = [](const std::string& file, int flags, int fd) {
      const int opened = ::open(file.c_str(), flags, 0644);
      if (opened < 0 || ::dup2(opened, fd) < 0) ::_exit(126);
      ::close(opened);
    };
    redirect(in_path, O_RDONLY, STDIN_FILENO);
    redirect(out_path, O_WRONLY | O_CREAT | O_TRUNC, STDOUT_FILENO);
    redirect(err_path, O_WRONLY | O_CREAT | O_TRUNC, STDERR_FILENO);
    if (setup.address_limit != 0) {
      const rlimit limit{static_cast<rlim_t>(setup.address_limit), static_cast<rlim_t>(setup.address_limit)};
      if (::setrlimit(RLIMIT_AS, &limit) != 0) ::_exit(126);
    }
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  tool_run run;
  int status = 0;
  if (child < 0 || ::waitpid(child, &status, 0) != child) {
    ADD_FAILURE() << "could not run " << exe;
    return run;
  }
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  run.out = read_file(out_path);
  run.err = read_file(err_path);
  return run;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

void expect_one_line_failure(const tool_run& run, const std::string& tool, int code,
                             const std::vector<std::string>& needles) {
  EXPECT_EQ(run.exit_code, code) << run.err;
  EXPECT_EQ(run.out, "");
  const auto lines = lines_of(run.err);
  ASSERT_EQ(lines.size(), 1u) << run.err;
  EXPECT_EQ(lines[0].rfind(tool + ": ", 0), 0u) << lines[0];
  for (const auto& needle : needles)
    EXPECT_NE(lines[0].find(needle), std::string::npos) << lines[0] << "\nmissing: " << needle;
}

}  // namespace bkt::apps::test
