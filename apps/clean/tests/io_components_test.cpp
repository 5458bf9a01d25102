// The component list: sexagesimal formatting as WSClean writes it, ordering, the source-list text
// parsed back, and the JSON list.
#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <sstream>

#include "io/component_list.hpp"
#include "io/fits_image.hpp"
#include "tool_fixture.hpp"

namespace clean_test {
namespace {

using namespace bkt::clean;

std::vector<std::string> split(const std::string& line, char separator) {
  std::vector<std::string> fields;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, separator)) fields.push_back(field);
  if (!line.empty() && line.back() == separator) fields.emplace_back();
  return fields;
}

/// hh:mm:ss.sss or +dd.mm.ss.sss back to degrees.
double parse_sexagesimal(const std::string& text, char separator, double unit_deg) {
  const bool negative = text[0] == '-';
  const std::string body = text[0] == '+' || text[0] == '-' ? text.substr(1) : text;
  std::vector<std::string> parts = split(body, separator);
  if (separator == '.') parts = {parts[0], parts[1], parts[2] + "." + parts[3]};
  const double value = std::stod(parts[0]) + std::stod(parts[1]) / 60 + std::stod(parts[2]) / 3600;
  return (negative ? -value : value) * unit_deg;
}

TEST(components_test, ra_and_dec_format) {
  // 08:28:05.152 = (8 + 28/60 + 5.152/3600) * 15 deg.
  EXPECT_EQ(format_ra((8 + 28.0 / 60 + 5.152 / 3600) * 15), "08:28:05.152");
  EXPECT_EQ(format_dec(39 + 35.0 / 60 + 8.511 / 3600), "+39.35.08.511");
  EXPECT_EQ(format_dec(-(1 + 2.0 / 60 + 3.5 / 3600)), "-01.02.03.500");
  EXPECT_EQ(format_dec(-0.5 / 3600), "-00.00.00.500");
  EXPECT_EQ(format_ra(0), "00:00:00.000");
  EXPECT_EQ(format_ra(-15), "23:00:00.000");
  // Rounding carries instead of printing 60 seconds.
  EXPECT_EQ(format_ra(15 * (1 - 0.0002 / 3600)), "01:00:00.000");
  EXPECT_EQ(format_ra(360 - 1e-9), "00:00:00.000");
  EXPECT_EQ(format_dec(10 - 0.0001 / 3600), "+10.00.00.000");
}

TEST(components_test, nonzero_pixels_by_descending_flux) {
  image model{3, 2, {0, 0.5f, -2, 0, std::nanf(""), 0.5f}};
  const sky_wcs no_wcs("");
  const auto components = model_components(model, 0, {}, no_wcs);
  ASSERT_EQ(components.size(), 3u);
  EXPECT_EQ(components[0].flux, -2.0f);
  EXPECT_EQ(components[0].x, 2);
  // Equal |flux|: lower y first.
  EXPECT_EQ(components[1].y, 0);
  EXPECT_EQ(components[2].y, 1);
  EXPECT_FALSE(components[0].sky);
}

TEST(components_test, source_list_parses_back) {
  const fits_image image = read_fits_image(std::string(BKT_DATA_DIR) + "/clean/pybdsf-test-image/ch0_I.fits");
  const sky_wcs wcs(image.header);
  bkt::clean::image model{129, 129, std::vector<float>(129 * 129, 0.0f)};
  model.at(1, 1) = 0.00748f;
  model.at(40, 90) = -0.25f;
  model.at(100, 3) = 1.5f;
  const auto components = model_components(model, 0, {}, wcs);
  const std::string text = wsclean_source_list(components, wcs.frequency_hz());
  const auto lines = lines_of(text);
  ASSERT_EQ(lines.size(), 4u) << text;
  EXPECT_EQ(lines[0], "Format = Name, Type, Ra, Dec, I, SpectralIndex, LogarithmicSI, ReferenceFrequency='23.5', "
                      "MajorAxis, MinorAxis, Orientation");
  const std::vector<float> fluxes = {1.5f, -0.25f, 0.00748f};
  for (std::size_t i = 0; i < 3; ++i) {
    const auto fields = split(lines[i + 1], ',');
    ASSERT_EQ(fields.size(), 11u) << lines[i + 1];
    EXPECT_EQ(fields[0], "s" + std::to_string(i) + "c0");
    EXPECT_EQ(fields[1], "POINT");
    EXPECT_EQ(std::stof(fields[4]), fluxes[i]);
    EXPECT_EQ(fields[5], "[]");
    EXPECT_EQ(fields[6], "false");
    EXPECT_EQ(std::stod(fields[7]), 23.5);
    EXPECT_EQ(fields[8] + fields[9] + fields[10], "");
    const auto& component = components[i];
    EXPECT_NEAR(parse_sexagesimal(fields[2], ':', 15), component.sky->ra_deg, 0.0005 * 15 / 3600 + 1e-12);
    EXPECT_NEAR(parse_sexagesimal(fields[3], '.', 1), component.sky->dec_deg, 0.0005 / 3600 + 1e-12);
  }
  // The reference pixel's line: RA 258.25 = 17:13:00.000, Dec 64.13333 = +64.07.59.988.
  EXPECT_NE(text.find("s2c0,POINT,17:13:00.000,+64.07.59.988,0.00748,"), std::string::npos) << text;
}

TEST(components_test, json_without_wcs_has_null_positions) {
  image model{2, 1, {0, 3}};
  const auto components = model_components(model, 4, {}, sky_wcs(""));
  const auto json = components_json(components);
  ASSERT_EQ(json.size(), 1u);
  EXPECT_EQ(json[0]["x"], 1);
  EXPECT_EQ(json[0]["y"], 0);
  EXPECT_EQ(json[0]["plane"], 4);
  EXPECT_TRUE(json[0]["ra_deg"].is_null());
  EXPECT_TRUE(json[0]["dec_deg"].is_null());
  EXPECT_EQ(json[0]["flux"], 3.0);
  const std::string text = wsclean_source_list(components, std::nullopt);
  EXPECT_NE(text.find("ReferenceFrequency='0'"), std::string::npos);
  EXPECT_NE(text.find("\n# No celestial WCS"), std::string::npos);
  EXPECT_NE(text.find("s0c0,POINT,,,3,[],false,,,,"), std::string::npos) << text;
}

}  // namespace
}  // namespace clean_test
