// Bad inputs and option combinations of joined channels and multiscale: each fails with one line
// naming the file (exit 1) or the options (exit 2), nothing on standard output, and no output
// file or temporary left.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "tool_fixture.hpp"

namespace clean_test {
namespace {

constexpr long side = 32;

std::string numbered(const std::string& name, int channel, const std::string& kind) {
  char number[8];
  std::snprintf(number, sizeof number, "%04d", channel);
  return name + "-" + number + "-" + kind + ".fits";
}

/// sky_cards with the FREQ axis at `frequency` (or no spectral axes at all for a negative one).
std::vector<std::string> cards_at(double frequency) {
  std::vector<std::string> cards;
  for (const std::string& card : sky_cards(side, side)) {
    const bool spectral = card.rfind("CTYPE3", 0) == 0 || card.rfind("CRVAL3", 0) == 0 ||
                          card.rfind("CDELT3", 0) == 0 || card.rfind("CRPIX3", 0) == 0 || card.rfind("CUNIT3", 0) == 0;
    if (!spectral) cards.push_back(card);
    else if (frequency >= 0) cards.push_back(card.rfind("CRVAL3", 0) == 0 ? "CRVAL3  = " + std::to_string(frequency) : card);
  }
  return cards;
}

class joint_errors : public tool_test {
 protected:
  void write_dirty(int channel, double frequency, long width = side) {
    write_test_fits(path(numbered("ch", channel, "dirty")),
                    {-32, {width, width, 1, 1}, point_sources(width, width, 3, {{10, 12, 1.0}}), cards_at(frequency), {}, {}, {}});
  }
  void write_psf(int channel, double frequency, long width = side) {
    write_test_fits(path(numbered("ch", channel, "psf")),
                    {-32, {width, width, 1, 1}, gaussian_psf(width, width, 3), cards_at(frequency), {}, {}, {}});
  }
  /// Channels 0 .. count - 1 at 1.4 GHz + 0.1 GHz each.
  void write_channels(int count) {
    for (int c = 0; c < count; ++c) {
      write_dirty(c, 1.4e9 + 1e8 * c);
      write_psf(c, 1.4e9 + 1e8 * c);
    }
  }
  /// Runs with every output requested and checks none of them appears.
  tool_run run_with_outputs(std::vector<std::string> arguments) {
    const auto before = listing();
    const std::vector<std::string> outputs{"--cpu",  "--name", path("out"), "--plot", path("plot.png"),
                                           "--json", path("summary.json")};
    arguments.insert(arguments.end(), outputs.begin(), outputs.end());
    const tool_run run = run_clean_tool(arguments);
    EXPECT_EQ(listing(), before) << "outputs or temporaries were left behind";
    return run;
  }
  tool_run run_joined(std::vector<std::string> more = {}) {
    std::vector<std::string> arguments{path("ch"), "--join-channels", "--niter", "10"};
    arguments.insert(arguments.end(), more.begin(), more.end());
    return run_with_outputs(arguments);
  }
};

TEST_F(joint_errors, a_gap_in_the_channels_names_the_missing_file) {
  write_channels(4);
  std::filesystem::remove(path(numbered("ch", 2, "dirty")));
  std::filesystem::remove(path(numbered("ch", 2, "psf")));
  expect_failure(run_joined(), 1,
                 {path(numbered("ch", 2, "dirty")) + ": missing, but " + path(numbered("ch", 3, "dirty")) + " exists"});
}

TEST_F(joint_errors, a_channel_without_its_psf) {
  write_channels(3);
  std::filesystem::remove(path(numbered("ch", 1, "psf")));
  expect_failure(run_joined(), 1, {path(numbered("ch", 1, "psf")) + ": missing: every channel needs its PSF"});
}

TEST_F(joint_errors, a_psf_without_its_channel) {
  write_channels(2);
  write_psf(2, 1.6e9);
  expect_failure(run_joined(), 1, {path(numbered("ch", 2, "psf")) + ": a PSF without its channel", "3 PSFs for 2 channels"});
}

TEST_F(joint_errors, channels_of_different_sizes) {
  write_channels(3);
  write_dirty(1, 1.5e9, 16);
  expect_failure(run_joined(), 1, {path(numbered("ch", 1, "dirty")) + ": 16 x 16 pixels, but ", "every channel's image"});
  write_channels(3);
  write_psf(2, 1.6e9, 64);
  expect_failure(run_joined(), 1, {path(numbered("ch", 2, "psf")) + ": 64 x 64 pixels", "every channel's PSF"});
}

TEST_F(joint_errors, frequencies_must_rise_or_fall_strictly) {
  write_channels(3);
  write_dirty(2, 1.45e9);  // 1.4, 1.5, then 1.45 GHz
  expect_failure(run_joined(), 1, {path(numbered("ch", 2, "dirty")) + ": frequency 1450000000 Hz after 1500000000 Hz",
                                   "must rise or fall strictly"});
  write_dirty(2, 1.5e9);  // twice 1.5 GHz
  expect_failure(run_joined(), 1, {path(numbered("ch", 2, "dirty")) + ": frequency 1500000000 Hz after"});
}

TEST_F(joint_errors, a_spectral_fit_needs_every_frequency) {
  write_channels(3);
  write_dirty(1, -1);  // no FREQ axis
  expect_failure(run_joined({"--fit-spectral-pol", "2"}), 1,
                 {path(numbered("ch", 1, "dirty")) + ": no frequency (no FREQ axis): --fit-spectral-pol"});
  // A cube without a FREQ axis: its planes have no frequency either.
  std::vector<double> planes = point_sources(side, side, 3, {{10, 12, 1.0}});
  planes.insert(planes.end(), planes.begin(), planes.end());
  write_test_fits(path("cube.fits"), {-32, {side, side, 2}, planes, {"CTYPE3  = 'CHANNEL'"}, {}, {}, {}});
  expect_failure(run_with_outputs({path("cube.fits"), path(numbered("ch", 0, "psf")), "--join-channels",
                                   "--fit-spectral-pol", "2"}),
                 1, {path("cube.fits") + " plane 0: no frequency"});
}

TEST_F(joint_errors, a_cube_with_stokes_planes_is_not_joined) {
  write_channels(1);
  std::vector<double> planes;
  for (int p = 0; p < 4; ++p)
    for (double value : point_sources(side, side, 3, {{10, 12, 1.0}})) planes.push_back(value);
  write_test_fits(path("iquv.fits"), {-32, {side, side, 1, 4}, planes, sky_cards(side, side), {}, {}, {}});
  expect_failure(run_with_outputs({path("iquv.fits"), path(numbered("ch", 0, "psf")), "--join-channels"}), 1,
                 {path("iquv.fits") + ": a Stokes axis of 4 planes"});
}

TEST_F(joint_errors, a_name_that_names_nothing) {
  expect_failure(run_joined(), 1, {path("ch") + ": no such file, and no " + path(numbered("ch", 0, "dirty"))});
  write_channels(1);
  expect_failure(run_with_outputs({path(numbered("ch", 0, "dirty")), "--join-channels"}), 2, {"PSF.fits is required"});
}

TEST_F(joint_errors, an_output_never_replaces_an_input) {
  write_channels(2);
  // A mask that sits where the MFS model would go.
  write_test_fits(path("out-MFS-model.fits"), {-32, {side, side}, std::vector<double>(side * side, 1.0), {}, {}, {}, {}});
  expect_failure(run_joined({"--mask", path("out-MFS-model.fits")}), 2,
                 {path("out-MFS-model.fits") + ": is also an input of this run"});
}

TEST_F(joint_errors, option_combinations_are_usage_errors) {
  write_channels(2);
  const std::string dirty = path(numbered("ch", 0, "dirty")), psf = path(numbered("ch", 0, "psf"));
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{dirty, psf, "--fit-spectral-pol", "2"}, "--fit-spectral-pol needs --join-channels"},
      {{dirty, psf, "--multiscale-gain", "0.3"}, "--multiscale-gain needs --multiscale"},
      {{dirty, psf, "--multiscale-scales", "0,4", "--algorithm", "clark"}, "--multiscale-scales needs --multiscale"},
      {{dirty, psf, "--multiscale", "--algorithm", "clark"}, "--multiscale and --algorithm clark"},
      {{path("ch"), "--join-channels", "--plane", "0"}, "--plane and --join-channels"},
      {{dirty, "--psf-beam", "--join-channels"}, "--psf-beam and --join-channels"},
      {{dirty, psf, "--join-channels", "--fit-spectral-pol", "9"}, "--fit-spectral-pol"},
      {{dirty, psf, "--join-channels", "--fit-spectral-pol", "0"}, "--fit-spectral-pol"},
      {{dirty, psf, "--multiscale", "--multiscale-shape", "square"}, "--multiscale-shape"},
      {{dirty, psf, "--multiscale", "--multiscale-scales", "0,x"}, "--multiscale-scales"},
      {{dirty, psf, "--multiscale", "--multiscale-scales", "0,-4"}, "--multiscale-scales"},
      {{dirty, psf, "--multiscale", "--multiscale-scale-bias", "0"}, "--multiscale-scale-bias"},
      {{dirty, psf, "--multiscale", "--multiscale-gain", "1.5"}, "--multiscale-gain"},
      {{dirty, psf, "--multiscale", "--multiscale-max-scales", "0"}, "--multiscale-max-scales"},
      {{dirty, psf, "--algorithm", "multi"}, "--algorithm"}};
  for (const auto& [arguments, needle] : cases) {
    SCOPED_TRACE(needle);
    expect_failure(run_with_outputs(arguments), 2, {needle});
  }
}

TEST_F(joint_errors, every_scale_too_large_is_a_usage_error) {
  write_channels(1);
  expect_failure(run_with_outputs({path(numbered("ch", 0, "dirty")), path(numbered("ch", 0, "psf")), "--multiscale",
                                   "--multiscale-scales", "20,40"}),
                 2, {"--multiscale-scales: every scale is at least half the image's smaller side"});
}

TEST_F(joint_errors, memory_beyond_max_memory_counts_every_channel) {
  write_channels(3);
  expect_failure(run_joined({"--max-memory", "100K"}), 1,
                 {path(numbered("ch", 0, "dirty")) + ": deconvolving 3 channels of 32 x 32 pixels together needs ",
                  "(--max-memory)"});
}

}  // namespace
}  // namespace clean_test
