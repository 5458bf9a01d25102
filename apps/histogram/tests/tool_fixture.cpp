#include "tool_fixture.hpp"

#include <sstream>

namespace histogram_test {

tool_run run_histogram(const std::vector<std::string>& arguments, const std::string& standard_input, int columns) {
  return ::bkt::apps::test::run_tool(BKT_HISTOGRAM_EXE, arguments,
                                     {.standard_input = standard_input,
                                      .environment = {"COLUMNS=" + std::to_string(columns)}});
}

std::vector<std::string> fields_of(const std::string& line) {
  std::vector<std::string> fields;
  std::istringstream in(line);
  for (std::string field; in >> field;) fields.push_back(field);
  return fields;
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
