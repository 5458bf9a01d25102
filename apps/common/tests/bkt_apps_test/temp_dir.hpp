// A fresh directory per test under $TMPDIR (else /tmp), removed with all it holds when the test
// ends; a fixture around one; and whole-file reads and writes.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

namespace bkt::apps::test {

/// The bytes of `file` ("" when it cannot be read).
std::string read_file(const std::filesystem::path& file);

/// Makes `bytes` the whole content of `file`.
void write_file(const std::filesystem::path& file, const std::string& bytes);

/// A directory made with mkdtemp as $TMPDIR/PREFIX.XXXXXX, removed (recursively) by the
/// destructor. The constructor throws std::runtime_error, naming the pattern, when mkdtemp fails.
class temp_dir {
 public:
  explicit temp_dir(const std::string& prefix = "bkt-test");
  ~temp_dir();
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  /// The names directly inside `directory`, sorted.
  static std::vector<std::string> names_in(const std::filesystem::path& directory);

 private:
  std::filesystem::path path_;
};

/// A test with its own temp_dir, dir_.
class temp_dir_test : public ::testing::Test {
 protected:
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  /// Writes `bytes` to `name` in the directory; returns its path.
  std::string write_file(const std::string& name, const std::string& bytes) const {
    test::write_file(path(name), bytes);
    return path(name);
  }
  static std::string read_file(const std::string& file) { return test::read_file(file); }
  /// The names in the directory, sorted: to check that no temporary is left behind.
  std::vector<std::string> entries() const { return temp_dir::names_in(dir_); }

  const temp_dir scratch_{"bkt-apps-test"};
  const std::filesystem::path dir_ = scratch_.path();
};

/// A tool test's directory: dir_ per test, whose "io" folder holds the tool's own files, so that
/// entries() shows exactly what a run left behind.
class tool_dir_test : public ::testing::Test {
 protected:
  tool_dir_test() { std::filesystem::create_directory(dir_ / "io"); }

  /// A path in the tool's folder.
  std::string path(const std::string& name) const { return (dir_ / "io" / name).string(); }
  /// Writes `bytes` to `name` in the tool's folder; returns its path.
  std::string write(const std::string& name, const std::string& bytes) const {
    test::write_file(path(name), bytes);
    return path(name);
  }
  /// Names in the tool's folder, sorted.
  std::vector<std::string> entries() const { return temp_dir::names_in(dir_ / "io"); }

  const temp_dir scratch_{"bkt-tool-test"};
  const std::filesystem::path dir_ = scratch_.path();
};

}  // namespace bkt::apps::test
