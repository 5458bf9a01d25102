// --descending, --argsort and --unique, alone and together, in one chunk and through the external sort.
#include <gtest/gtest.h>

#include "expected.hpp"
#include "tool_fixture.hpp"

namespace bkt::radixsort::test {
namespace {

class sort_flags_test : public tool_test, public ::testing::WithParamInterface<std::vector<std::string>> {
 protected:
  /// The flags that choose how the tool splits the work: none (one chunk), or many small chunks
  /// through the external sort (sampled, split into buckets, each bucket sorted).
  std::vector<std::string> with_split(std::vector<std::string> args) const {
    for (const auto& extra : GetParam()) args.push_back(extra);
    return args;
  }
};

TEST_P(sort_flags_test, descending_keeps_ties_in_input_order) {
  const auto values = adversarial_values<double>(3000, 21);
  const std::string input = write("in.f64", raw_bytes(values));
  const tool_result result = run(with_split({input, "--dtype", "f64", "--descending", "-o", path("out.f64")}));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(read_file(path("out.f64")), raw_bytes(gather(values, expected_positions(values, {.descending = true}))));
}

TEST_P(sort_flags_test, argsort_writes_stable_i64_positions) {
  const auto values = adversarial_values<std::int16_t>(3000, 22);
  const std::string input = write("in.npy", npy_1d(values));
  const tool_result npy = run(with_split({input, "--argsort", "-o", path("order.npy")}));
  ASSERT_EQ(npy.exit_code, 0) << npy.err;
  EXPECT_EQ(read_file(path("order.npy")), npy_1d(expected_positions(values)));
  const tool_result text = run(with_split({input, "--argsort", "--descending", "--output-format", "text"}));
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.out, text_lines(expected_positions(values, {.descending = true})));
}

TEST_P(sort_flags_test, unique_compares_bits) {
  const auto values = adversarial_values<float>(3000, 23);  // -0.0 and +0.0, NaNs of several payloads
  const std::string input = write("in.f32", raw_bytes(values));
  const tool_result result = run(with_split({input, "--dtype", "f32", "--unique", "-o", path("out.npy")}));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto kept = gather(values, expected_positions(values, {.unique = true}));
  EXPECT_EQ(read_file(path("out.npy")), npy_1d(kept));
  EXPECT_GT(kept.size(), 20u);  // both zeros and every NaN payload stayed apart
}

TEST_P(sort_flags_test, unique_argsort_gives_first_occurrences) {
  const auto values = adversarial_values<std::uint64_t>(3000, 24);
  const std::string input = write("in.u64", raw_bytes(values));
  for (bool descending : {false, true}) {
    std::vector<std::string> args = {input, "--dtype", "u64", "--unique", "--argsort", "-o", path("out.bin")};
    if (descending) args.push_back("--descending");
    const tool_result result = run(with_split(args));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto positions = expected_positions(values, {.descending = descending, .unique = true});
    EXPECT_EQ(read_file(path("out.bin")), raw_bytes(positions));
    // Each kept index is the first place its value occurs in the input.
    for (std::int64_t p : positions) EXPECT_EQ(std::find(values.begin(), values.end(), values[p]) - values.begin(), p);
  }
}

TEST_P(sort_flags_test, text_input_of_unknown_length) {
  std::vector<std::int32_t> values = adversarial_values<std::int32_t>(2500, 25);
  const std::string input = write("in.txt", text_lines(values));
  const tool_result result = run(with_split({input, "--dtype", "i32", "--stable"}));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, text_lines(gather(values, expected_positions(values))));
}

INSTANTIATE_TEST_SUITE_P(splits, sort_flags_test,
                         ::testing::Values(std::vector<std::string>{}, std::vector<std::string>{"--chunk-items", "7"},
                                           std::vector<std::string>{"--chunk-items", "1000"},
                                           std::vector<std::string>{"--chunk-items", "13"},
                                           std::vector<std::string>{"--chunk-items", "1", "--cpu"}),
                         [](const auto& info) {
                           std::string name = "chunks";
                           for (const auto& arg : info.param)
                             for (char c : arg) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return info.param.empty() ? std::string("whole") : name;
                         });

using chunking = tool_test;

TEST_F(chunking, verbose_reports_chunks_and_buckets) {
  const auto values = adversarial_values<std::uint32_t>(100, 26);
  const std::string input = write("in.bin", raw_bytes(values));
  const tool_result result = run({input, "--dtype", "u32", "--chunk-items", "30", "--spill-dir",
                                  dir_.string(), "--verbose", "--cpu", "-o", path("out.bin")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.err.find("100 u32 elements from " + input + " on cpu, 4 chunk(s) of up to 30, 1 bucket(s)"),
            std::string::npos)
      << result.err;
  EXPECT_EQ(read_file(path("out.bin")), raw_bytes(gather(values, expected_positions(values))));
  EXPECT_EQ(entries(), (std::vector<std::string>{"in.bin", "out.bin"}));  // the spill file is gone
}

TEST_F(chunking, exact_multiple_of_the_chunk) {
  const auto values = adversarial_values<std::int64_t>(120, 27);
  const std::string input = write("in.bin", raw_bytes(values));
  for (const char* chunk : {"40", "120", "119", "121"}) {
    const tool_result result = run({input, "--dtype", "i64", "--chunk-items", chunk, "-o", path("out.bin")});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(read_file(path("out.bin")), raw_bytes(gather(values, expected_positions(values)))) << chunk;
  }
}

}  // namespace
}  // namespace bkt::radixsort::test

namespace bkt::radixsort::test {
namespace {

using external = tool_test;

TEST_F(external, standard_input_is_read_once_and_replayed_from_the_spill_directory) {
  const auto values = adversarial_values<std::int64_t>(1000, 27);
  std::string text;
  for (const auto value : values) text += std::to_string(value) + "\n";
  const std::string input = write("in.txt", text);
  const tool_result result = run({"--chunk-items", "64", "--argsort", "--descending", "--spill-dir", dir_.string(),
                                  "--cpu", "-o", path("order.npy")},
                                 input);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(read_file(path("order.npy")), npy_1d(expected_positions(values, {.descending = true})));
  EXPECT_EQ(entries(), (std::vector<std::string>{"in.txt", "order.npy"}));  // no copy left behind
}

TEST_F(external, gpu_memory_takes_a_size) {
  const std::string input = write("in.txt", "3\n1\n2\n");
  for (const char* bad : {"lots", "0", "-2G"}) {
    const tool_result result = run({input, "--gpu-memory", bad, "-o", path("out.txt")});
    EXPECT_EQ(result.exit_code, 2) << bad;
    EXPECT_NE(result.err.find("--gpu-memory"), std::string::npos) << result.err;
  }
  const tool_result result = run({input, "--gpu-memory", "512M", "-o", path("out.txt")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(read_file(path("out.txt")), "1\n2\n3\n");
}

}  // namespace
}  // namespace bkt::radixsort::test
