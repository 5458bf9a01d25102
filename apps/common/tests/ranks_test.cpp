// The rank layer with one rank (a plain test run): the launcher's environment is read right, the
// collectives are the identities, and run_tool and the commit point behave as without mpirun.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>

#include "bkt_apps/cli.hpp"
#include "bkt_apps/output_set.hpp"
#include "bkt_apps/ranks.hpp"
#include "bkt_apps_test/temp_dir.hpp"

namespace bkt::apps {
namespace {

/// read_launch_environment over a table instead of the process's environment.
launch_environment read_table(const std::map<std::string, std::string>& table) {
  return read_launch_environment([&table](const char* name) -> const char* {
    const auto found = table.find(name);
    return found == table.end() ? nullptr : found->second.c_str();
  });
}

TEST(launch_environment_test, no_launcher) {
  const launch_environment found = read_table({{"HOME", "/root"}});
  EXPECT_FALSE(found.under_launcher);
  EXPECT_FALSE(found.size);
  EXPECT_FALSE(found.local_rank);
}

TEST(launch_environment_test, open_mpi) {
  const launch_environment found =
      read_table({{"OMPI_COMM_WORLD_SIZE", "4"}, {"OMPI_COMM_WORLD_LOCAL_RANK", "3"}, {"PMIX_RANK", "3"}});
  EXPECT_TRUE(found.under_launcher);
  EXPECT_EQ(found.size, 4);
  EXPECT_EQ(found.local_rank, 3);
}

TEST(launch_environment_test, pmi_and_slurm) {
  const launch_environment found = read_table({{"PMI_SIZE", "2"}, {"SLURM_LOCALID", "1"}});
  EXPECT_TRUE(found.under_launcher);
  EXPECT_EQ(found.size, 2);
  EXPECT_EQ(found.local_rank, 1);
}

TEST(launch_environment_test, one_rank_is_a_launch_of_size_one) {
  const launch_environment found = read_table({{"OMPI_COMM_WORLD_SIZE", "1"}});
  EXPECT_TRUE(found.under_launcher);
  EXPECT_EQ(found.size, 1);
}

TEST(launch_environment_test, pmix_without_size) {
  const launch_environment found = read_table({{"PMIX_RANK", "0"}});
  EXPECT_TRUE(found.under_launcher);
  EXPECT_FALSE(found.size);
}

TEST(launch_environment_test, garbage_is_ignored) {
  const launch_environment found =
      read_table({{"OMPI_COMM_WORLD_SIZE", "two"}, {"PMI_SIZE", "-3"}, {"OMPI_COMM_WORLD_LOCAL_RANK", "99999999999"}});
  EXPECT_FALSE(found.under_launcher);
  EXPECT_FALSE(found.size);
  EXPECT_FALSE(found.local_rank);
}

TEST(rank_context_test, alone_is_rank_zero_of_one) {
  rank_context ranks;
  EXPECT_EQ(ranks.rank(), 0);
  EXPECT_EQ(ranks.size(), 1);
  EXPECT_TRUE(ranks.is_root());
  EXPECT_FALSE(ranks.several());
  EXPECT_EQ(ranks.label("x: bad"), "x: bad");
  ranks.barrier();
  EXPECT_EQ(ranks.gather_to_root("abc"), std::vector<std::string>{"abc"});
  EXPECT_EQ(ranks.broadcast_from_root(std::string("a\0b", 3)), std::string("a\0b", 3));
}

TEST(rank_context_test, agreement_reports_the_failure) {
  rank_context ranks;
  EXPECT_TRUE(ranks.all_succeeded(true).ok);
  EXPECT_NO_THROW(ranks.require_all_succeeded());
  EXPECT_TRUE(ranks.agreements_open());
  const rank_agreement agreement = ranks.all_succeeded(false, "in.txt: bad", exit_usage);
  EXPECT_FALSE(agreement.ok);
  EXPECT_EQ(agreement.failed_rank, 0);
  EXPECT_EQ(agreement.message, "in.txt: bad");
  EXPECT_EQ(agreement.exit_code, exit_usage);
  EXPECT_FALSE(ranks.agreements_open());
}

class commit_together_test : public test::temp_dir_test {};

TEST_F(commit_together_test, shows_the_outputs) {
  rank_context ranks;
  output_set outputs;
  outputs.add(path("a.txt")).write("a\n");
  outputs.add_summary(path("s.json")).write("{}\n");
  ranks.commit_together(outputs);
  EXPECT_EQ(read_file(path("a.txt")), "a\n");
  EXPECT_EQ(read_file(path("s.json")), "{}\n");
  EXPECT_FALSE(ranks.agreements_open());
}

/// run_tool on a tiny app; returns the exit code and what it wrote on stderr.
std::pair<int, std::string> run_body(const std::function<void(rank_context&)>& body) {
  CLI::App app("test tool", "bkt-test");
  common_flags flags;
  add_common_flags(app, flags, "bkt-test");
  char name[] = "bkt-test";
  char* argv[] = {name, nullptr};
  ::testing::internal::CaptureStderr();
  const int code = run_tool("bkt-test", app, 1, argv, flags, body);
  return {code, ::testing::internal::GetCapturedStderr()};
}

TEST(run_tool_ranks_test, failure_alone_has_no_rank_label) {
  const auto [code, err] = run_body([](rank_context&) { throw usage_error("--x: bad"); });
  EXPECT_EQ(code, exit_usage);
  EXPECT_EQ(err, "bkt-test: --x: bad\n");
}

TEST(run_tool_ranks_test, failure_after_commit_is_reported) {
  const auto [code, err] = run_body([](rank_context& ranks) {
    output_set outputs;
    ranks.commit_together(outputs);
    throw app_error("late: failed");
  });
  EXPECT_EQ(code, exit_bad_input);
  EXPECT_EQ(err, "bkt-test: late: failed\n");
}

TEST(run_tool_ranks_test, success) {
  const auto [code, err] = run_body([](rank_context& ranks) { EXPECT_EQ(ranks.size(), 1); });
  EXPECT_EQ(code, exit_ok);
  EXPECT_EQ(err, "");
}

class failure_leaves_no_output_test : public test::temp_dir_test {};

TEST_F(failure_leaves_no_output_test, before_the_commit_point) {
  const auto [code, err] = run_body([&](rank_context&) {
    output_set outputs;
    outputs.add(path("a.txt")).write("a\n");
    throw app_error("b.txt: cannot create: denied");
  });
  EXPECT_EQ(code, exit_bad_input);
  EXPECT_TRUE(entries().empty());
}

#ifdef BKT_APPS_TEST_WITHOUT_MPI
/// A build without MPI refuses a launch of several ranks, which would all write the same files.
TEST(run_tool_ranks_test, several_ranks_without_mpi_are_refused) {
  ASSERT_FALSE(built_with_mpi());
  ::setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
  bool ran = false;
  const auto [code, err] = run_body([&](rank_context&) { ran = true; });
  ::unsetenv("OMPI_COMM_WORLD_SIZE");
  EXPECT_FALSE(ran);
  EXPECT_EQ(code, exit_usage);
  EXPECT_NE(err.find("launched as 2 ranks, but this build has no MPI"), std::string::npos) << err;
}
#endif

}  // namespace
}  // namespace bkt::apps
