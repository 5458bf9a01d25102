// Every bad input fails the same way: exit 1 (bad data or I/O) or 2 (usage), nothing on standard
// output, one line "bkt-clean: FILE: problem" on stderr, and no output file or temporary left.
// Runs use --cpu so that they pass without a GPU.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>
#include <system_error>
#include <vector>

#include "tool_fixture.hpp"

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

TEST_F(clean_errors, range_errors_state_the_bound_plainly) {
  // CLI11's PositiveNumber printed its bounds as 300-digit numbers, and let NaN through.
  const std::vector<std::vector<std::string>> cases = {
      {"--auto-threshold", "-3", "--auto-threshold: '-3' must be > 0"},
      {"--auto-threshold", "0", "--auto-threshold: '0' must be > 0"},
      {"--auto-threshold", "nan", "--auto-threshold: 'nan' is not a finite number (must be > 0)"},
      {"--auto-mask", "0", "--auto-mask: '0' must be > 0"},
      {"--threshold", "-1", "--threshold: '-1' must be >= 0"},
      {"--threshold", "inf", "--threshold: 'inf' is not a finite number (must be >= 0)"},
      {"--niter", "-1", "--niter: '-1' must be >= 0"},
      {"--plane", "-1", "--plane: '-1' must be >= 0"}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c[0] + " " + c[1]);
    const tool_run run = run_with_outputs({path("dirty.fits"), path("psf.fits"), c[0], c[1]});
    expect_failure(run, 2, {c[2]});
    EXPECT_LT(run.err.size(), 100u) << run.err;
  }
}

TEST_F(clean_errors, counts_are_whole_numbers_as_written) {
  // WSClean's -niter refuses "1e3" too; the message says what to write instead.
  expect_failure(run_with_outputs({path("dirty.fits"), path("psf.fits"), "--niter", "1e3"}), 2,
                 {"--niter: '1e3' is not a whole number as written: write 1000"});
  expect_failure(run_with_outputs({path("dirty.fits"), path("psf.fits"), "--niter", "2.5"}), 2,
                 {"--niter: '2.5' is not a whole number"});
  expect_failure(run_with_outputs({path("dirty.fits"), path("psf.fits"), "--plane", "0x1"}), 2,
                 {"--plane: '0x1' is not a whole number"});
  // A leading zero is decimal: CLI11 alone read "010" as octal 8.
  const tool_run run = run_clean_tool(
      {path("dirty.fits"), path("psf.fits"), "--cpu", "--prefix", path("out"), "--niter", "010", "--json", "-"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("\"iterations\": 10,"), std::string::npos) << run.out;
}

TEST_F(clean_errors, auto_mask_must_be_above_auto_threshold) {
  for (const char* level : {"3", "2"}) {
    SCOPED_TRACE(level);
    expect_failure(run_with_outputs({path("dirty.fits"), path("psf.fits"), "--auto-threshold", "3", "--auto-mask", level}),
                   2, {"--auto-mask " + std::string(level) + " must be above --auto-threshold 3"});
  }
}

TEST_F(clean_errors, algorithm_takes_only_its_names) {
  for (const char* name : {"2", "0", "Clark", "hogbom ", ""}) {
    SCOPED_TRACE(name);
    expect_failure(run_with_outputs({path("dirty.fits"), path("psf.fits"), "--algorithm", name}), 2, {"--algorithm"});
  }
}

TEST_F(clean_errors, prefix_must_name_files) {
  const auto before = listing();
  expect_failure(run_clean_tool({path("dirty.fits"), path("psf.fits"), "--cpu", "--prefix", ""}), 2,
                 {"--prefix: the prefix is empty"});
  expect_failure(run_clean_tool({path("dirty.fits"), path("psf.fits"), "--cpu", "--prefix", path("") + "/"}), 2,
                 {"ends in '/'"});
  EXPECT_EQ(listing(), before);
}

TEST_F(clean_errors, infinite_pixels_are_refused_with_their_position) {
  // CFITSIO's null check turns IEEE infinities into the blank value: they became NaN, silently.
  auto values = point_sources(side, side, 3, {{10, 12, 1.0}});
  values[4 * side + 3] = INFINITY;
  write_test_fits(path("inf.fits"), {-32, {side, side}, values, {}, {}, {}, {}});
  expect_failure(run_with_outputs({path("inf.fits"), path("psf.fits")}), 1,
                 {path("inf.fits") + ": +inf at pixel (3, 4): infinite pixels are not data"});
  auto mask = std::vector<double>(side * side, 1.0);
  mask[side + 30] = -INFINITY;
  write_test_fits(path("mask.fits"), {-64, {side, side}, mask, {}, {}, {}, {}});
  expect_failure(run_with_outputs({path("dirty.fits"), path("psf.fits"), "--mask", path("mask.fits")}), 1,
                 {path("mask.fits") + ": -inf at pixel (30, 1)"});
}

TEST_F(clean_errors, zero_bscale_is_refused) {
  // CFITSIO applies BSCALE = 0 as given: every pixel became BZERO and the run "succeeded".
  write_test_fits(path("flat.fits"),
                  {16, {side, side}, std::vector<double>(side * side, 100.0), {}, 0.0, 0.0, {}});
  expect_failure(run_with_outputs({path("flat.fits"), path("psf.fits")}), 1, {path("flat.fits") + ": BSCALE = 0"});
}

TEST_F(clean_errors, beam_fit_failure_names_the_psf) {
  // A single-pixel PSF passes prepare_psf, but its main lobe is too small to fit a Gaussian.
  std::vector<double> spike(side * side, 0.0);
  spike[side / 2 * side + side / 2] = 1.0;
  write_test_fits(path("spike.fits"), {-32, {side, side}, spike, {}, {}, {}, {}});
  expect_failure(run_with_outputs({path("dirty.fits"), path("spike.fits")}), 1,
                 {path("spike.fits") + ": cannot fit a restoring beam"});
}

TEST_F(clean_errors, psf_beam_with_a_zero_header_beam_names_the_image) {
  auto cards = sky_cards(side, side);
  cards.insert(cards.end(), {"BMAJ    = 0.0", "BMIN    = 0.0", "BPA     = 0.0"});
  write_test_fits(path("zero-beam.fits"), {-32, {side, side}, point_sources(side, side, 3, {{10, 12, 1.0}}), cards, {}, {}, {}});
  expect_failure(run_with_outputs({path("zero-beam.fits"), "--psf-beam"}), 1,
                 {path("zero-beam.fits") + ": --psf-beam needs BMAJ and BMIN > 0"});
}

TEST_F(clean_errors, memory_beyond_max_memory_is_refused_before_reading) {
  expect_failure(run_with_outputs({path("dirty.fits"), path("psf.fits"), "--max-memory", "1K"}), 1,
                 {path("dirty.fits") + ": deconvolving 1 plane of 32 x 32 pixels needs ", "(--max-memory)"});
}

/// A FITS header for a float image of `width` x `height`, the file extended (sparse: no disk
/// blocks) to the full data size. False when the file system cannot hold such a file.
bool write_sparse_fits(const std::string& file, std::int64_t width, std::int64_t height) {
  std::string header;
  for (const std::string& card : {std::string("SIMPLE  =                    T"), std::string("BITPIX  =                  -32"),
                                  std::string("NAXIS   =                    2"),
                                  "NAXIS1  = " + std::string(20 - std::to_string(width).size(), ' ') + std::to_string(width),
                                  "NAXIS2  = " + std::string(20 - std::to_string(height).size(), ' ') + std::to_string(height),
                                  std::string("END")})
    header += card + std::string(80 - card.size(), ' ');
  header.resize(2880, ' ');
  write_file(file, header);
  std::error_code error;
  std::filesystem::resize_file(file, 2880 + static_cast<std::uintmax_t>(width * height * 4), error);
  return !error;
}

TEST_F(clean_errors, huge_axes_are_refused_up_front) {
  // 2^20 x 2^20 float pixels: 4.4 TB the machine does not have. Before, the first plane's
  // allocation failed as "out of host memory", naming no file.
  if (!write_sparse_fits(path("huge.fits"), std::int64_t{1} << 20, std::int64_t{1} << 20))
    GTEST_SKIP() << "this file system cannot hold a 4 TB sparse file";
  expect_failure(run_with_outputs({path("huge.fits"), path("psf.fits")}), 1,
                 {path("huge.fits") + ": deconvolving 1 plane of 1048576 x 1048576 pixels needs ", "TB of host memory"});
}

TEST_F(clean_errors, running_out_of_host_memory_names_the_image) {
  // --max-memory 1T lets the plan pass; a 1 GB address space then cannot hold the 1 GiB plane
  // of a 16384^2 image. Before, the line read "bkt-clean: out of host memory", naming nothing.
  if (!write_sparse_fits(path("big.fits"), 16384, 16384)) GTEST_SKIP() << "no sparse files here";
  const auto before = listing();
  const tool_run run = run_clean_tool(
      {path("big.fits"), path("psf.fits"), "--cpu", "--max-memory", "1T", "--prefix", path("out")}, rlim_t{1} << 30);
  expect_failure(run, 1, {path("big.fits") + ": out of host memory while deconvolving it"});
  EXPECT_EQ(listing(), before);
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
