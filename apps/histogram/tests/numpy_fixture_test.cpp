// bkt-histogram against numpy.histogram itself: each case of data/histogram-numpy-cases.txt
// (scripts/histogram_numpy_fixture.py) run through the tool as a user would, with --range as NumPy
// got its range, without --range where NumPy took it from the data, or with --edges. The counts
// must be NumPy's and the printed edges NumPy's edges, for every dtype the fixture holds (f16,
// f32, f64 and the integers), on the CPU and on the default device.
#include <cuda_fp16.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/numpy_cases.hpp"
#include "test_files.hpp"
#include "tool_fixture.hpp"

namespace histogram_test {
namespace {

using bkt::test::numpy_cases::numpy_case;

class numpy_fixture : public tool_test {};

/// The case's data as a .npy of its dtype.
void write_case_data(const std::filesystem::path& file, const numpy_case& c) {
  const auto as = [&]<class T>(std::type_identity<T>) {
    std::vector<T> values;
    for (const T& value : c.data<T>()) values.push_back(value);
    write_npy<T>(file, values);
  };
  if (c.dtype == "f16") {
    std::vector<__half> values;
    for (const double value : c.data<double>()) values.push_back(__half(static_cast<float>(value)));  // exact halves
    write_npy<__half>(file, values);
  } else if (c.dtype == "f32") as(std::type_identity<float>{});
  else if (c.dtype == "f64") as(std::type_identity<double>{});
  else if (c.dtype == "i8") as(std::type_identity<std::int8_t>{});
  else if (c.dtype == "u8") as(std::type_identity<std::uint8_t>{});
  else if (c.dtype == "i16") as(std::type_identity<std::int16_t>{});
  else if (c.dtype == "u16") as(std::type_identity<std::uint16_t>{});
  else if (c.dtype == "i32") as(std::type_identity<std::int32_t>{});
  else if (c.dtype == "u32") as(std::type_identity<std::uint32_t>{});
  else FAIL() << "unknown dtype " << c.dtype;
}

TEST_F(numpy_fixture, counts_and_edges_are_numpys) {
  const auto cases = bkt::test::numpy_cases::load_cases();
  ASSERT_GE(cases.size(), 20u);
  for (const auto& c : cases) {
    SCOPED_TRACE("case " + c.name);
    const auto data = path(c.name + ".npy");
    write_case_data(data, c);
    std::vector<std::string> arguments = {data.string()};
    if (c.even()) {
      arguments.insert(arguments.end(), {"--bins", std::to_string(c.bins)});
      if (!c.auto_range) arguments.push_back("--range=" + c.range_text[0] + ":" + c.range_text[1]);
    } else {
      std::string edges;
      for (const double edge : c.given_edges) edges += number_text(edge) + "\n";
      write_file(path(c.name + ".edges"), edges);
      arguments.insert(arguments.end(), {"--edges", path(c.name + ".edges").string()});
    }
    std::int64_t in_bins = 0;
    for (const auto count : c.counts) in_bins += count;
    for (const bool cpu : {true, false}) {
      SCOPED_TRACE(cpu ? "--cpu" : "default device");
      auto run_arguments = arguments;
      if (cpu) run_arguments.push_back("--cpu");
      const auto got = run_json(run_arguments);
      EXPECT_EQ(got["counts"].get<std::vector<std::int64_t>>(), c.counts);
      EXPECT_EQ(got["totals"]["in_range"].get<std::int64_t>(), in_bins);
      const auto edges = got["edges"].get<std::vector<double>>();
      ASSERT_EQ(edges.size(), c.numpy_edges.size());
      const bool float_edges = got["binned_as"] == "f32" && c.even();  // printed as the floats they are
      for (std::size_t i = 0; i < edges.size(); ++i) {
        if (float_edges) EXPECT_EQ(static_cast<float>(edges[i]), static_cast<float>(c.numpy_edges[i])) << "edge " << i;
        else EXPECT_EQ(edges[i], c.numpy_edges[i]) << "edge " << i;
      }
      if (::testing::Test::HasFailure()) return;
    }
  }
}

}  // namespace
}  // namespace histogram_test
