// The cases of data/histogram-numpy-cases.txt (scripts/histogram_numpy_fixture.py, run with NumPy):
// inputs and numpy.histogram's edges and counts for them, read back here, for tests that run
// without NumPy. Every value of every case is exact in double (f16, f32, f64, integers of up to 32
// bits), so a case holds its values as doubles and data<T>() rounds the bulk part as NumPy's
// astype did.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace bkt::test::numpy_cases {

struct numpy_case {
  std::string name;
  std::string dtype;                 // f16, f32, f64, i8, u8, i16, u16, i32, u32
  int bins = 0;                      // bins + 1 == numpy_edges.size()
  std::vector<double> given_edges;   // numpy.histogram(a, bins=given_edges); empty for even bins
  bool auto_range = false;           // even bins over [a.min(), a.max()]
  std::string range_text[2];         // the range as NumPy got it (Python literals), for the tool
  double range[2] = {0, 0};
  std::int64_t bulk_count = 0;
  std::uint64_t bulk_seed = 0;
  std::string bulk_kind;  // normal or uniform
  double bulk_a = 0, bulk_b = 0;
  std::vector<double> probes;
  std::vector<double> numpy_edges;
  std::vector<std::int64_t> counts;

  bool even() const { return given_edges.empty(); }
  bool integer() const { return dtype[0] == 'i' || dtype[0] == 'u'; }

  /// The bulk part (before rounding to the dtype), as the script's LCG draws it.
  std::vector<double> bulk() const {
    std::uint64_t state = bulk_seed;
    auto next = [&state] {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      return static_cast<std::int64_t>(state >> 40);
    };
    std::vector<double> out(static_cast<std::size_t>(bulk_count));
    for (double& value : out) {
      if (bulk_kind == "normal") {
        const std::int64_t sum = next() + next() + next() + next();
        value = static_cast<double>(sum - (std::int64_t{1} << 25)) * bulk_a;
      } else if (integer()) {
        const std::int64_t high = next(), low = next();
        value = static_cast<double>(static_cast<std::int64_t>(bulk_a) +
                                    ((high << 24) + low) % static_cast<std::int64_t>(bulk_b));
      } else {
        volatile double scaled = static_cast<double>(next()) * bulk_b;  // not fused with the sum
        value = bulk_a + scaled;
      }
    }
    return out;
  }

  /// Bulk then probes, as T (NumPy's astype rounds the bulk part to nearest, as static_cast does).
  template <class T>
  std::vector<T> data() const {
    std::vector<T> out;
    for (double value : bulk()) out.push_back(static_cast<T>(value));
    for (double value : probes) out.push_back(static_cast<T>(value));
    return out;
  }

  /// Every value as double (exact): bulk rounded to the dtype, then probes. For f16 the bulk is empty.
  template <class T>
  std::vector<double> data_as_double() const {
    std::vector<double> out;
    for (const T& value : data<T>()) out.push_back(static_cast<double>(value));
    return out;
  }
};

inline std::filesystem::path cases_path() {
  return std::filesystem::path(__FILE__).parent_path().parent_path().parent_path() / "data" / "histogram-numpy-cases.txt";
}

inline std::vector<double> parse_numbers(std::istringstream& fields) {
  std::vector<double> out;
  std::string word;
  while (fields >> word) out.push_back(std::strtod(word.c_str(), nullptr));  // hex floats, nan, inf
  return out;
}

inline std::vector<numpy_case> load_cases() {
  std::ifstream in(cases_path());
  if (!in) throw std::runtime_error("cannot read " + cases_path().string());
  std::vector<numpy_case> cases;
  std::string line;
  numpy_case current;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string key;
    fields >> key;
    if (key == "case") {
      current = numpy_case{};
      fields >> current.name;
    } else if (key == "dtype") {
      fields >> current.dtype;
    } else if (key == "bins") {
      fields >> current.bins;
    } else if (key == "edges") {
      current.given_edges = parse_numbers(fields);
      current.bins = static_cast<int>(current.given_edges.size()) - 1;
    } else if (key == "range") {
      fields >> current.range_text[0];
      current.auto_range = current.range_text[0] == "auto";
      if (!current.auto_range) {
        fields >> current.range_text[1];
        for (int end = 0; end < 2; ++end) current.range[end] = std::strtod(current.range_text[end].c_str(), nullptr);
      }
    } else if (key == "bulk") {
      std::string a, b;
      fields >> current.bulk_count >> current.bulk_seed >> current.bulk_kind >> a >> b;
      current.bulk_a = std::strtod(a.c_str(), nullptr);
      current.bulk_b = std::strtod(b.c_str(), nullptr);
    } else if (key == "probes") {
      current.probes = parse_numbers(fields);
    } else if (key == "numpy_edges") {
      current.numpy_edges = parse_numbers(fields);
    } else if (key == "counts") {
      for (double count : parse_numbers(fields)) current.counts.push_back(static_cast<std::int64_t>(count));
    } else if (key == "end") {
      if (current.numpy_edges.size() != static_cast<std::size_t>(current.bins) + 1 ||
          current.counts.size() != static_cast<std::size_t>(current.bins))
        throw std::runtime_error(cases_path().string() + ": case " + current.name + " is inconsistent");
      cases.push_back(current);
    } else {
      throw std::runtime_error(cases_path().string() + ": unknown line '" + key + "'");
    }
  }
  return cases;
}

}  // namespace bkt::test::numpy_cases
