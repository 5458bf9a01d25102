// --json: the summary's shape, and where it goes.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "bkt/gpu.hpp"
#include "expected.hpp"
#include "tool_fixture.hpp"

namespace bkt::radixsort::test {
namespace {

using json_summary = tool_test;

TEST_F(json_summary, names_the_gpu_and_times_the_copies) {
  if (!bkt::gpu_available()) GTEST_SKIP() << "no CUDA device";
  const auto values = adversarial_values<float>(1 << 20, 32);
  const std::string input = write("in.f32", raw_bytes(values));
  const tool_result result = run({input, "--dtype", "f32", "--argsort", "--chunk-items", "300000", "--json",
                                  path("summary.json"), "-o", path("out.bin")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto summary = nlohmann::json::parse(read_file(path("summary.json")));
  EXPECT_EQ(summary["device"], bkt::current_device_info().name);
  EXPECT_EQ(summary["chunks"], 4);
  EXPECT_GT(summary["seconds"]["upload"].get<double>(), 0.0);
  EXPECT_GT(summary["seconds"]["sort"].get<double>(), 0.0);
  EXPECT_GT(summary["seconds"]["download"].get<double>(), 0.0);
  EXPECT_EQ(read_file(path("out.bin")), raw_bytes(expected_positions(values)));
}

TEST_F(json_summary, to_a_file) {
  const auto values = adversarial_values<std::uint32_t>(1000, 31);
  const std::string input = write("in.bin", raw_bytes(values));
  const tool_result result = run({input, "--dtype", "u32", "--chunk-items", "300", "--cpu", "--unique", "--json",
                                  path("summary.json"), "-o", path("out.bin")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto summary = nlohmann::json::parse(read_file(path("summary.json")));
  EXPECT_EQ(summary["tool"], "bkt-radixsort");
  EXPECT_EQ(summary["input"], input);
  EXPECT_EQ(summary["output"], path("out.bin"));
  EXPECT_EQ(summary["dtype"], "u32");
  EXPECT_EQ(summary["elements"], 1000);
  EXPECT_EQ(summary["output_elements"], expected_positions(values, {.unique = true}).size());
  EXPECT_EQ(summary["device"], "cpu");
  EXPECT_EQ(summary["chunks"], 4);
  EXPECT_EQ(summary["chunk_items"], 300);
  EXPECT_GE(summary["buckets"].get<int>(), 1);  // four chunks: the external sort
  for (const char* phase : {"read", "upload", "sort", "download", "split", "write", "total"})
    EXPECT_GE(summary["seconds"][phase].get<double>(), 0.0) << phase;
  EXPECT_EQ(summary["seconds"]["upload"], 0.0);
  EXPECT_GT(summary["elements_per_second"].get<double>(), 0.0);
}

TEST_F(json_summary, to_stdout_when_the_data_goes_to_a_file) {
  const std::string input = write("in.txt", "3\n2\n1\n");
  const tool_result result = run({input, "--json", "-", "-o", path("out.txt")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(nlohmann::json::parse(result.out)["elements"], 3);
  EXPECT_EQ(read_file(path("out.txt")), "1\n2\n3\n");
}

TEST_F(json_summary, none_without_the_flag) {
  const std::string input = write("in.txt", "3\n2\n1\n");
  const tool_result result = run({input, "-o", path("out.txt")});
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err, "");
}

}  // namespace
}  // namespace bkt::radixsort::test
