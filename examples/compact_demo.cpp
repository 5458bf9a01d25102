// bkt-compact-demo: keeps the numbers of one column of a text file that pass a threshold, on the
// GPU when there is one, else on the CPU. Example, on the bundled Rome road network (DIMACS .gr,
// arc lines "a FROM TO METRES"): bkt-compact-demo data/graphs/rome99.gr --lines a --column 4 --above 1000
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "bkt/compact.hpp"
#include "bkt/gpu.hpp"

namespace {

struct column_values {
  std::vector<double> values;
  std::int64_t skipped_lines = 0;  // comments, headers, lines too short
};

/// Field `column` (1-based) of every line where it parses as a number (and whose first field is
/// `first_field`, when that is given).
column_values read_column(const std::string& path, int column, const std::string& first_field) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open");
  column_values out;
  std::string line, field;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    if (!first_field.empty() && !(fields >> field && field == first_field)) {
      ++out.skipped_lines;
      continue;
    }
    fields.seekg(0);
    int k = 0;
    while (k < column && fields >> field) ++k;
    std::size_t used = 0;
    try {
      const double value = k == column ? std::stod(field, &used) : 0.0;
      if (k == column && used == field.size()) {
        out.values.push_back(value);
        continue;
      }
    } catch (const std::exception&) {
    }
    ++out.skipped_lines;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("Keeps the numbers of one column of a text file that pass a threshold, in file order.");
  std::string path, first_field;
  int column = 1;
  std::optional<double> above, below;
  bool cpu = false, json = false;
  app.add_option("FILE", path, "text file, whitespace-separated columns")->required();
  app.add_option("--column", column, "1-based column to read (lines where it is not a number are skipped)")
      ->check(CLI::PositiveNumber);
  app.add_option("--lines", first_field, "read only lines whose first field is this (e.g. 'a' for DIMACS arcs)");
  auto* above_option = app.add_option("--above", above, "keep values greater than this");
  app.add_option("--below", below, "keep values less than this")->excludes(above_option);
  app.add_flag("--cpu", cpu, "run on the CPU even when a GPU is present");
  app.add_flag("--json", json, "print the result as JSON");
  app.set_version_flag("--version", "bkt-compact-demo 0.1.0");
  CLI11_PARSE(app, argc, argv);

  try {
    const column_values input = read_column(path, column, first_field);
    if (input.values.empty()) throw std::runtime_error(path + ": no numbers in column " + std::to_string(column));
    const bkt::compare_with<double> pred = below ? bkt::compare_with<double>{bkt::compare_op::less, *below}
                                                 : bkt::compare_with<double>{bkt::compare_op::greater, above.value_or(0)};
    const bool on_gpu = !cpu && bkt::gpu_available();
    std::vector<double> kept(input.values.size());
    const auto start = std::chrono::steady_clock::now();
    const std::int64_t count = bkt::host::select_if<double>(
        input.values, kept, pred, on_gpu ? bkt::host::backend::gpu : bkt::host::backend::cpu);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    kept.resize(static_cast<std::size_t>(count));
    double sum = 0;
    for (double v : kept) sum += v;
    const std::string device = on_gpu ? bkt::current_device_info().name : "CPU";
    const std::string rule = std::string(below ? "< " : "> ") + std::to_string(below ? *below : above.value_or(0));
    if (json) {
      nlohmann::json doc = {{"file", path},       {"column", column},  {"values", input.values.size()},
                            {"skipped_lines", input.skipped_lines}, {"rule", rule}, {"kept", count},
                            {"kept_sum", sum},    {"device", device},  {"seconds", seconds}};
      std::printf("%s\n", doc.dump(2).c_str());
    } else {
      std::printf("%s: %zu values in column %d (%lld other lines skipped)\n", path.c_str(), input.values.size(),
                  column, static_cast<long long>(input.skipped_lines));
      std::printf("kept %lld values %s (%.1f%%), in file order; their sum is %.6g\n", static_cast<long long>(count),
                  rule.c_str(), 100.0 * count / input.values.size(), sum);
      std::printf("first kept:");
      for (std::size_t i = 0; i < kept.size() && i < 8; ++i) std::printf(" %g", kept[i]);
      std::printf("\nran on %s in %.3f ms%s\n", device.c_str(), seconds * 1e3, on_gpu ? " (with the copies to and from it)" : "");
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bkt-compact-demo: %s\n", e.what());
    return 1;
  }
  return 0;
}
