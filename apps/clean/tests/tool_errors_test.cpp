// Every bad input fails the same way: exit 1 (bad data or I/O) or 2 (usage), nothing on standard
// output, one line "bkt-clean: FILE: problem" on stderr, and no output file or temporary left.
// Runs use --cpu so that they pass without a GPU.
#include <cmath>
#include <limits>

#include "tool_runner.hpp"

namespace clean_test {
namespace {

constexpr long side = 32;

class clean_errors : public tool_test {
 protected:
  void SetUp() override {
    tool_test::SetUp();
    write_test_fits(path("dirty.fits"),
                    {-32, {side, side, 1, 1}, point_sources(side, side, 3, {{10, 12, 1.0}}), sky_cards(side, side), {}, {}, {}});
    write_test_fits(path("psf.fits"), {-32, {side, side, 1, 1}, gaussian_psf(side, side, 3), sky_cards(side, side), {}, {}, {}});
  }

  /// Runs with every output requested (prefix, --plot, --json) and checks none of them appears.
  tool_run run_with_outputs(std::vector<std::string> arguments) {
    const auto before = listing();
    const std::vector<std::string> outputs{"--cpu",  "--prefix", path("out"), "--plot", path("plot.png"),
                                           "--json", path("summary.json")};
    arguments.insert(arguments.end(), outputs.begin(), outputs.end());
    const tool_run run = run_clean_tool(arguments);
    EXPECT_EQ(listing(), before) << "outputs or temporaries were left behind";
    return run;
  }
};

TEST_F(clean_errors, dirty_not_fits) {
  write_file(path("notes.fits"), "this is a text file, not an image\n");
  expect_failure(run_with_outputs({path("notes.fits"), path("psf.fits")}), 1, {path("notes.fits") + ": not a FITS file"});
}

TEST_F(clean_errors, psf_truncated) {
  const std::string whole = read_file(path("psf.fits"));
  write_file(path("cut.fits"), whole.substr(0, whole.size() - 2880));
  expect_failure(run_with_outputs({path("dirty.fits"), path("cut.fits")}), 1, {path("cut.fits") + ": truncated"});
}

TEST_F(clean_errors, missing_input) {
  expect_failure(run_with_outputs({path("dirty.fits"), path("none.fits")}), 1, {path("none.fits") + ": cannot open"});
}

TEST_F(clean_errors, psf_shape_mismatch) {
  write_test_fits(path("psf48.fits"), {-32, {48, 48}, gaussian_psf(48, 48, 3), {}, {}, {}, {}});
  expect_failure(run_with_outputs({path("dirty.fits"), path("psf48.fits")}), 1, {path("psf48.fits")});
}

TEST_F(clean_errors, psf_peak_off_centre) {
  auto values = point_sources(side, side, 3, {{5, 7, 1.0}});
  values[side / 2 * side + side / 2] = 0.5;
  write_test_fits(path("off.fits"), {-32, {side, side}, values, {}, {}, {}, {}});
  expect_failure(run_with_outputs({path("dirty.fits"), path("off.fits")}), 1, {path("off.fits")});
}

TEST_F(clean_errors, psf_peak_not_positive) {
  auto negative = gaussian_psf(side, side, 3);
  for (double& value : negative) value = -value;
  write_test_fits(path("negative.fits"), {-32, {side, side}, negative, {}, {}, {}, {}});
  expect_failure(run_with_outputs({path("dirty.fits"), path("negative.fits")}), 1, {path("negative.fits")});
  write_test_fits(path("zero.fits"), {-32, {side, side}, std::vector<double>(side * side, 0.0), {}, {}, {}, {}});
  expect_failure(run_with_outputs({path("dirty.fits"), path("zero.fits")}), 1, {path("zero.fits")});
}

TEST_F(clean_errors, all_nan_image) {
  write_test_fits(path("blank.fits"),
                  {-32, {side, side}, std::vector<double>(side * side, std::nan("")), {}, {}, {}, {}});
  expect_failure(run_with_outputs({path("blank.fits"), path("psf.fits")}), 1, {path("blank.fits") + ": all pixels are NaN"});
  // A 16-bit image whose every pixel is BLANK is just as empty.
  write_test_fits(path("blank16.fits"), {16, {side, side}, std::vector<double>(side * side, -1.0), {}, {}, {}, -1});
  expect_failure(run_with_outputs({path("blank16.fits"), path("psf.fits")}), 1, {path("blank16.fits") + ": all pixels"});
}

TEST_F(clean_errors, unknown_axis_layout) {
  write_test_fits(path("spectrum.fits"), {-32, {side, side}, std::vector<double>(side * side, 1.0),
                                          {"CTYPE1  = 'FREQ'", "CTYPE2  = 'STOKES'"}, {}, {}, {}});
  expect_failure(run_with_outputs({path("spectrum.fits"), path("psf.fits")}), 1,
                 {path("spectrum.fits") + ": unknown axis layout"});
}

TEST_F(clean_errors, axis_count) {
  write_test_fits(path("line.fits"), {-32, {side}, std::vector<double>(side, 1.0), {}, {}, {}, {}});
  expect_failure(run_with_outputs({path("line.fits"), path("psf.fits")}), 1, {path("line.fits") + ": NAXIS = 1"});
}

TEST_F(clean_errors, plane_count_mismatch) {
  const auto plane = point_sources(side, side, 3, {{10, 12, 1.0}});
  std::vector<double> two = plane, three = gaussian_psf(side, side, 3);
  two.insert(two.end(), plane.begin(), plane.end());
  const auto psf = three;
  for (int i = 0; i < 2; ++i) three.insert(three.end(), psf.begin(), psf.end());
  write_test_fits(path("cube2.fits"), {-32, {side, side, 2}, two, sky_cards(side, side), {}, {}, {}});
  write_test_fits(path("psf3.fits"), {-32, {side, side, 3}, three, sky_cards(side, side), {}, {}, {}});
  expect_failure(run_with_outputs({path("cube2.fits"), path("psf3.fits")}), 1, {path("psf3.fits") + ": 3 planes"});
}

TEST_F(clean_errors, mask_size_mismatch) {
  write_test_fits(path("mask.fits"), {-32, {side, side / 2}, std::vector<double>(side * side / 2, 1.0), {}, {}, {}, {}});
  expect_failure(run_with_outputs({path("dirty.fits"), path("psf.fits"), "--mask", path("mask.fits")}), 1,
                 {path("mask.fits") + ": 32 x 16 pixels"});
}

TEST_F(clean_errors, beam_in_arcsec_needs_celestial_wcs) {
  write_test_fits(path("plain.fits"), {-32, {side, side}, point_sources(side, side, 3, {{10, 12, 1.0}}), {}, {}, {}, {}});
  expect_failure(run_with_outputs({path("plain.fits"), path("psf.fits"), "--beam", "20,10,0"}), 1,
                 {path("plain.fits") + ": --beam"});
}

TEST_F(clean_errors, psf_beam_needs_the_header_beam_and_no_psf_file) {
  expect_failure(run_with_outputs({path("dirty.fits"), "--psf-beam"}), 1, {path("dirty.fits") + ": --psf-beam needs"});
  expect_failure(run_with_outputs({path("dirty.fits"), path("psf.fits"), "--psf-beam"}), 2, {"not both"});
}

TEST_F(clean_errors, unwritable_prefix) {
  const std::string prefix = path("no-such-directory/out");
  const tool_run run = run_clean_tool({path("dirty.fits"), path("psf.fits"), "--cpu", "--prefix", prefix});
  expect_failure(run, 1, {prefix + "-model.fits: cannot create: "});
  EXPECT_EQ(listing(), (std::vector<std::string>{"dirty.fits", "psf.fits"}));
}

TEST_F(clean_errors, bad_options_are_usage_errors) {
  const std::vector<std::vector<std::string>> cases = {
      {"--gain", "0"},           {"--gain", "1.5"},          {"--mgain", "-0.1"},        {"--algorithm", "mfs"},
      {"--niter", "-1"},         {"--threshold", "-1"},      {"--auto-threshold", "0"},  {"--mask-box", "3,3,1,1"},
      {"--mask-box", "1,2,3"},   {"--mask-box", "-1,0,4,4"}, {"--beam", "20,10"},        {"--beam", "10,20,0"},
      {"--beam", "circle"},      {"--plot", "plot.gif"},     {"--plane", "-1"},          {"--plane", "1"},
      {"--mask-box", "0,0,40,4"}, {"--no-such-option"}};
  for (const auto& extra : cases) {
    std::vector<std::string> arguments{path("dirty.fits"), path("psf.fits")};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    SCOPED_TRACE(extra.front() + (extra.size() > 1 ? " " + extra[1] : ""));
    expect_failure(run_with_outputs(arguments), 2, {});
  }
  // Missing positional inputs or --prefix.
  expect_failure(run_clean_tool({path("dirty.fits"), "--prefix", path("out")}), 2, {"PSF"});
  expect_failure(run_clean_tool({path("dirty.fits"), path("psf.fits")}), 2, {"--prefix"});
}

TEST_F(clean_errors, help_and_version_succeed) {
  const tool_run help = run_clean_tool({"--help"});
  EXPECT_EQ(help.exit_code, 0);
  for (const char* needle : {"--niter", "--gain", "--mgain", "--auto-threshold", "--mask-box", "--beam", "--plane", "--plot"})
    EXPECT_NE(help.out.find(needle), std::string::npos) << needle;
  const tool_run version = run_clean_tool({"--version"});
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_EQ(version.out.rfind("bkt-clean ", 0), 0u) << version.out;
}

}  // namespace
}  // namespace clean_test
