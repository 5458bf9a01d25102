// Whole runs through the joint engine (--multiscale, --join-channels) on the CPU: the four-channel
// WSClean simulation against WSClean's own deconvolution of it, the same channels as a cube, and
// small synthetic fields for blank channels and planes cleaned alone.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>

#include "synthetic/seeded_random.hpp"
#include "synthetic/uv_psf.hpp"
#include "tool_fixture.hpp"

namespace clean_test {
namespace {

namespace fs = std::filesystem;

const std::string sim = std::string(BKT_DATA_DIR) + "/clean/wsclean-sim-4ch/";

/// 1.4826 x the median absolute deviation from the median, over the pixels that are not NaN.
double mad_sigma_of(std::vector<double> values) {
  values.erase(std::remove_if(values.begin(), values.end(), [](double v) { return std::isnan(v); }), values.end());
  const auto median = [](std::vector<double>& v) {
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    return v[v.size() / 2];
  };
  const double centre = median(values);
  for (double& value : values) value = std::fabs(value - centre);
  return 1.4826 * median(values);
}

double sum_of(const std::vector<double>& values) {
  double sum = 0;
  for (double value : values)
    if (!std::isnan(value)) sum += value;
  return sum;
}

/// The fields of a source-list line (no field of these lists holds a comma inside brackets: one
/// spectral term at most).
std::vector<std::string> fields_of(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream stream(line);
  for (std::string field; std::getline(stream, field, ',');) fields.push_back(field);
  if (!line.empty() && line.back() == ',') fields.emplace_back();
  return fields;
}

class joint_runs : public tool_test {
 protected:
  /// Runs --cpu with --json FILE; expects success and returns the parsed JSON.
  nlohmann::json run_ok(std::vector<std::string> arguments, tool_run* run_out = nullptr) {
    arguments.insert(arguments.end(), {"--cpu", "--json", path("summary.json")});
    const tool_run run = run_clean_tool(arguments);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    if (run_out != nullptr) *run_out = run;
    try {
      return nlohmann::json::parse(read_file(path("summary.json")));
    } catch (const std::exception& e) {
      ADD_FAILURE() << "summary is not JSON: " << e.what();
      return nlohmann::json::object();
    }
  }
  /// WSClean's settings for the simulation (data/clean/wsclean-sim-4ch/COMMANDS.txt).
  static std::vector<std::string> wsclean_settings(const std::string& niter) {
    return {"--multiscale", "--join-channels", "--auto-threshold", "1",    "--auto-mask", "3",
            "--mgain",      "0.8",             "--fit-spectral-pol", "2", "--niter",     niter};
  }
};

TEST_F(joint_runs, wsclean_simulation_matches_wsclean) {
  std::vector<std::string> arguments{sim + "sim", "--name", path("out")};
  const auto settings = wsclean_settings("100000");
  arguments.insert(arguments.end(), settings.begin(), settings.end());
  tool_run run;
  const auto json = run_ok(arguments, &run);

  for (int c = 0; c < 4; ++c)
    for (const char* kind : {"model", "residual", "image"}) {
      const std::string name = "out-000" + std::to_string(c) + "-" + kind + ".fits";
      EXPECT_TRUE(fs::is_regular_file(path(name))) << name;
    }
  for (const char* name : {"out-MFS-model.fits", "out-MFS-residual.fits", "out-MFS-image.fits", "out-sources.txt",
                           "out-components.json"})
    EXPECT_TRUE(fs::is_regular_file(path(name))) << name;
  // The restored image's former name leads to the run's restored image, the MFS one.
  ASSERT_TRUE(fs::is_symlink(path("out-restored.fits")));
  EXPECT_EQ(fs::read_symlink(path("out-restored.fits")), "out-MFS-image.fits");
  EXPECT_EQ(read_pixels(path("out-restored.fits")), read_pixels(path("out-MFS-image.fits")));

  // Each channel's residual noise within 10 % of WSClean's, the MFS model's flux within 5 %.
  for (int c = 0; c < 4; ++c) {
    SCOPED_TRACE(c);
    const std::string number = "000" + std::to_string(c);
    const double ours = mad_sigma_of(read_pixels(path("out-" + number + "-residual.fits")));
    const double theirs = mad_sigma_of(read_pixels(sim + "wsclean-" + number + "-residual.fits"));
    EXPECT_NEAR(ours, theirs, 0.1 * theirs);
    EXPECT_NEAR(json["channels"][c]["residual_sigma"].get<double>(), ours, 0.02 * ours);
  }
  const double mfs_flux = sum_of(read_pixels(path("out-MFS-model.fits")));
  const double wsclean_flux = sum_of(read_pixels(sim + "wsclean-MFS-model.fits"));
  EXPECT_NEAR(mfs_flux, wsclean_flux, 0.05 * wsclean_flux);
  EXPECT_NEAR(json["mfs"]["model_flux"].get<double>(), mfs_flux, 1e-3 * mfs_flux);

  // The summary: scales from the beam, cycles measured again and again, the auto-mask reached.
  EXPECT_EQ(json["algorithm"], "multiscale");
  EXPECT_TRUE(json["joined"].get<bool>());
  EXPECT_EQ(json["input"], "channel files");
  EXPECT_EQ(json["stop_reason"], "threshold");
  EXPECT_GT(json["scales"].size(), 2u);
  EXPECT_EQ(json["scales"][0], 0.0);
  EXPECT_TRUE(json["scales_left_out"].is_array());
  EXPECT_TRUE(json["scales_left_out"].empty());  // the PSF samples every scale below half the image
  EXPECT_GE(json["noise_cycles"].size(), 3u);
  EXPECT_TRUE(json["noise_cycles"].back()["masked"].get<bool>());
  EXPECT_EQ(json["channels"].size(), 4u);
  EXPECT_DOUBLE_EQ(json["reference_frequency_hz"].get<double>(), 1.35e9);
  EXPECT_NE(run.out.find("4 channels joined"), std::string::npos) << run.out;

  // Each channel file keeps its own header and beam; the MFS image takes NAME-MFS-dirty.fits's.
  const auto channel2 = read_header_cards(path("out-0002-image.fits"));
  EXPECT_DOUBLE_EQ(std::stod(*card_value(channel2, "CRVAL3")), 1.4e9);
  EXPECT_NEAR(std::stod(*card_value(channel2, "BMAJ")) * 3600, json["channels"][2]["beam"]["major_arcsec"].get<double>(), 1e-6);
  EXPECT_DOUBLE_EQ(std::stod(*card_value(read_header_cards(path("out-MFS-image.fits")), "CRVAL3")), 1.35e9);
  EXPECT_EQ(card_value(read_header_cards(path("out-0001-model.fits")), "BUNIT"), "JY/PIXEL");

  // The source list: WSClean's format, points and Gaussians, one spectral term each.
  const auto lines = lines_of(read_file(path("out-sources.txt")));
  ASSERT_GT(lines.size(), 2u);
  EXPECT_EQ(lines[0], "Format = Name, Type, Ra, Dec, I, SpectralIndex, LogarithmicSI, ReferenceFrequency='1350000000', "
                      "MajorAxis, MinorAxis, Orientation");
  std::size_t points = 0, gaussians = 0;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    SCOPED_TRACE(lines[i]);
    const auto fields = fields_of(lines[i]);
    ASSERT_EQ(fields.size(), 11u);
    EXPECT_EQ(fields[0].rfind(fields[1] == "POINT" ? "s0c" : "s", 0), 0u);
    EXPECT_TRUE(std::isfinite(std::stod(fields[4])));
    ASSERT_GE(fields[5].size(), 3u);
    EXPECT_EQ(fields[5].front(), '[');
    EXPECT_EQ(fields[5].back(), ']');
    EXPECT_TRUE(std::isfinite(std::stod(fields[5].substr(1))));
    EXPECT_EQ(fields[6], "false");
    EXPECT_EQ(fields[7], "1350000000");
    if (fields[1] == "POINT") {
      ++points;
      EXPECT_EQ(fields[8] + fields[9] + fields[10], "");
    } else {
      ASSERT_EQ(fields[1], "GAUSSIAN");
      ++gaussians;
      EXPECT_GT(std::stod(fields[8]), 0);
      EXPECT_EQ(fields[8], fields[9]);
      EXPECT_EQ(fields[10], "0");
    }
  }
  EXPECT_GT(points, 0u);
  EXPECT_GT(gaussians, 0u);
  const auto components = nlohmann::json::parse(read_file(path("out-components.json")));
  EXPECT_EQ(components["components"].size(), lines.size() - 1);
  EXPECT_EQ(components["components"][0]["channel_fluxes"].size(), 4u);
  EXPECT_EQ(components["components"][0]["spectral_terms"].size(), 2u);
}

/// The four channel files as one cube: axis 3 FREQ, four planes, the WCS of channel 0.
void write_sim_cube(const std::string& dirty, const std::string& psf) {
  for (const auto& [kind, target] : {std::pair{std::string("dirty"), dirty}, std::pair{std::string("psf"), psf}}) {
    std::vector<double> values;
    std::vector<long> axes;
    for (int c = 0; c < 4; ++c) {
      const auto plane = read_pixels(sim + "sim-000" + std::to_string(c) + "-" + kind + ".fits", &axes);
      values.insert(values.end(), plane.begin(), plane.end());
    }
    std::vector<std::string> cards;
    for (const std::string& card : read_header_cards(sim + "sim-0000-" + kind + ".fits")) {
      const std::string keyword = card.substr(0, 8);
      if (keyword.rfind("NAXIS", 0) == 0 || keyword.rfind("SIMPLE", 0) == 0 || keyword.rfind("BITPIX", 0) == 0 ||
          keyword.rfind("EXTEND", 0) == 0 || keyword.rfind("BSCALE", 0) == 0 || keyword.rfind("BZERO", 0) == 0 ||
          keyword.rfind("COMMENT", 0) == 0 || keyword.rfind("END", 0) == 0)
        continue;
      cards.push_back(card);
    }
    write_test_fits(target, {-32, {axes[0], axes[1], 4, 1}, values, cards, {}, {}, {}});
  }
}

TEST_F(joint_runs, a_cube_of_the_channels_gives_the_same_images) {
  write_sim_cube(path("cube.fits"), path("cube-psf.fits"));
  // Fewer components than the full run: the paths must agree pixel for pixel all the same.
  auto settings = wsclean_settings("300");
  std::vector<std::string> files{sim + "sim", "--name", path("files")};
  files.insert(files.end(), settings.begin(), settings.end());
  run_ok(files);
  std::vector<std::string> cube{path("cube.fits"), path("cube-psf.fits"), "--name", path("cube")};
  cube.insert(cube.end(), settings.begin(), settings.end());
  const auto json = run_ok(cube);
  EXPECT_EQ(json["input"], "cube");

  std::vector<long> axes;
  for (const char* kind : {"model", "residual", "image"}) {
    SCOPED_TRACE(kind);
    const auto planes = read_pixels(path(std::string("cube-") + kind + ".fits"), &axes);
    EXPECT_EQ(axes, (std::vector<long>{256, 256, 4, 1}));
    std::vector<double> channels;
    for (int c = 0; c < 4; ++c) {
      const auto plane = read_pixels(path("files-000" + std::to_string(c) + "-" + kind + ".fits"));
      channels.insert(channels.end(), plane.begin(), plane.end());
    }
    EXPECT_EQ(planes, channels);
  }
  // The MFS model and residual alike; the MFS image differs by its beam alone, fitted to
  // sim-MFS-psf.fits from the files and to the cube's integrated PSF, which is what that file holds.
  for (const char* kind : {"model", "residual"})
    EXPECT_EQ(read_pixels(path(std::string("cube-MFS-") + kind + ".fits")),
              read_pixels(path(std::string("files-MFS-") + kind + ".fits")))
        << kind;
  const auto cube_image = read_pixels(path("cube-MFS-image.fits")), files_image = read_pixels(path("files-MFS-image.fits"));
  ASSERT_EQ(cube_image.size(), files_image.size());
  for (std::size_t i = 0; i < cube_image.size(); ++i) ASSERT_NEAR(cube_image[i], files_image[i], 1e-4) << i;
  EXPECT_EQ(fs::read_symlink(path("cube-restored.fits")), "cube-image.fits");
  EXPECT_EQ(read_file(path("cube-sources.txt")), read_file(path("files-sources.txt")));
}

constexpr long side = 32;

/// Small channel files NAME-000N-dirty.fits / -psf.fits: a point source whose flux falls with
/// frequency, 1.4 GHz + 0.1 GHz per channel.
void write_small_channels(const std::string& name, int channels) {
  for (int c = 0; c < channels; ++c) {
    auto cards = sky_cards(side, side);
    for (std::string& card : cards)
      if (card.rfind("CRVAL3", 0) == 0) card = "CRVAL3  = " + std::to_string(1.4e9 + 1e8 * c);
    char number[8];
    std::snprintf(number, sizeof number, "%04d", c);
    write_test_fits(name + "-" + number + "-dirty.fits",
                    {-32, {side, side, 1, 1}, point_sources(side, side, 3, {{12, 14, 1.0 - 0.1 * c}}), cards, {}, {}, {}});
    write_test_fits(name + "-" + number + "-psf.fits", {-32, {side, side, 1, 1}, gaussian_psf(side, side, 3), cards, {}, {}, {}});
  }
}

TEST_F(joint_runs, a_blank_channel_is_left_out_and_written_as_it_came) {
  write_small_channels(path("ch"), 3);
  auto cards = sky_cards(side, side);
  for (std::string& card : cards)
    if (card.rfind("CRVAL3", 0) == 0) card = "CRVAL3  = 1.5E9";
  write_test_fits(path("ch-0001-dirty.fits"), {-32, {side, side, 1, 1}, std::vector<double>(side * side, std::nan("")),
                                               cards, {}, {}, {}});
  tool_run run;
  const auto json = run_ok({path("ch"), "--join-channels", "--name", path("out"), "--niter", "50"}, &run);
  EXPECT_TRUE(json["channels"][1]["skipped"].get<bool>());
  EXPECT_EQ(json["runs"][0]["channels"], (std::vector<int>{0, 2}));
  EXPECT_NE(run.out.find("every pixel NaN"), std::string::npos) << run.out;
  const auto model = read_pixels(path("out-0001-model.fits"));
  EXPECT_TRUE(std::all_of(model.begin(), model.end(), [](double v) { return v == 0; }));
  const auto residual = read_pixels(path("out-0001-residual.fits"));
  EXPECT_TRUE(std::all_of(residual.begin(), residual.end(), [](double v) { return std::isnan(v); }));
  EXPECT_GT(sum_of(read_pixels(path("out-0000-model.fits"))), 0.5);
  EXPECT_TRUE(fs::is_regular_file(path("out-MFS-image.fits")));
}

TEST_F(joint_runs, multiscale_cleans_each_plane_alone) {
  auto cube = point_sources(side, side, 3, {{12, 14, 1.0}});
  for (double value : point_sources(side, side, 3, {{20, 9, 0.5}})) cube.push_back(value);
  write_test_fits(path("cube.fits"), {-32, {side, side, 2, 1}, cube, sky_cards(side, side), {}, {}, {}});
  write_test_fits(path("psf.fits"), {-32, {side, side, 1, 1}, gaussian_psf(side, side, 3), sky_cards(side, side), {}, {}, {}});
  tool_run run;
  const auto json = run_ok({path("cube.fits"), path("psf.fits"), "--multiscale", "--multiscale-scales", "0,4", "--name",
                            path("p"), "--niter", "200", "--threshold", "0.01"},
                           &run);
  EXPECT_FALSE(json["joined"].get<bool>());
  ASSERT_EQ(json["runs"].size(), 2u);
  EXPECT_EQ(json["runs"][0]["scales"], (std::vector<double>{0, 4}));
  EXPECT_EQ(json["mfs"], nullptr);
  EXPECT_FALSE(fs::exists(path("p-MFS-image.fits")));
  std::vector<long> axes;
  read_pixels(path("p-image.fits"), &axes);
  EXPECT_EQ(axes, (std::vector<long>{side, side, 2, 1}));
  EXPECT_EQ(fs::read_symlink(path("p-restored.fits")), "p-image.fits");
  // Each plane's flux where its source is.
  const auto model = read_pixels(path("p-model.fits"));
  EXPECT_NEAR(sum_of({model.begin(), model.begin() + side * side}), 1.0, 0.05);
  EXPECT_NEAR(sum_of({model.begin() + side * side, model.end()}), 0.5, 0.05);
  const auto components = nlohmann::json::parse(read_file(path("p-components.json")))["components"];
  ASSERT_FALSE(components.empty());
  EXPECT_TRUE(components[0].contains("scale"));
  EXPECT_FALSE(components[0].contains("spectral_terms"));
  EXPECT_NE(run.out.find("2 planes, each alone"), std::string::npos) << run.out;

  // --plane: that plane alone, its world coordinates kept (CRPIX3 moved from 1 to 0).
  const auto one = run_ok({path("cube.fits"), path("psf.fits"), "--multiscale", "--multiscale-scales", "0,4", "--name",
                           path("one"), "--niter", "200", "--threshold", "0.01", "--plane", "1"});
  ASSERT_EQ(one["channels"].size(), 1u);
  read_pixels(path("one-image.fits"), &axes);
  EXPECT_EQ(axes, (std::vector<long>{side, side, 1, 1}));
  EXPECT_DOUBLE_EQ(std::stod(*card_value(read_header_cards(path("one-model.fits")), "CRPIX3")), 0.0);
  EXPECT_NEAR(sum_of(read_pixels(path("one-model.fits"))), 0.5, 0.05);
}

TEST_F(joint_runs, joined_hogbom_without_multiscale) {
  write_small_channels(path("ch"), 2);
  const auto json = run_ok({path("ch"), "--join-channels", "--name", path("out"), "--niter", "100", "--threshold", "0.01"});
  EXPECT_EQ(json["algorithm"], "hogbom");
  EXPECT_EQ(json["scales"], (std::vector<double>{0}));
  EXPECT_EQ(json["stop_reason"], "threshold");
  // No spectral fit: each point's I is the channels' weighted mean, 0.95.
  const auto lines = lines_of(read_file(path("out-sources.txt")));
  ASSERT_GE(lines.size(), 2u);
  EXPECT_NEAR(std::stod(fields_of(lines[1])[4]), 0.95, 0.02);
  EXPECT_EQ(fields_of(lines[1])[5], "[]");
}

TEST_F(joint_runs, a_run_that_diverges_with_an_image_sized_psf_says_why) {
  // joint_cpu.white_noise_the_psf_cannot_explain_stops_as_diverged as channel files: snapshot PSFs
  // of the image's size, white noise that no component seen through them explains, no threshold.
  constexpr long n = 256;
  bkt::clean::synthetic::seeded_random random(7);
  for (int c = 0; c < 4; ++c) {
    bkt::clean::synthetic::uv_coverage_config coverage;
    coverage.width = coverage.height = n;
    coverage.hour_angle_steps = 1;
    coverage.max_uv_fraction = 0.7 * (1.2 + 0.1 * c) / 1.5;
    const bkt::clean::image psf = bkt::clean::synthetic::make_uv_psf(coverage);
    std::vector<double> noise(static_cast<std::size_t>(n * n));
    for (double& value : noise) value = random.normal();
    auto cards = sky_cards(n, n);
    for (std::string& card : cards)
      if (card.rfind("CRVAL3", 0) == 0) card = "CRVAL3  = " + std::to_string(1.2e9 + 1e8 * c);
    const std::string number = "000" + std::to_string(c);
    write_test_fits(path("noise-" + number + "-dirty.fits"), {-32, {n, n, 1, 1}, noise, cards, {}, {}, {}});
    write_test_fits(path("noise-" + number + "-psf.fits"),
                    {-32, {n, n, 1, 1}, std::vector<double>(psf.pixels.begin(), psf.pixels.end()), cards, {}, {}, {}});
  }
  tool_run run;
  const auto json = run_ok({path("noise"), "--join-channels", "--multiscale", "--multiscale-scales", "0,40",
                            "--multiscale-shape", "tapered-quadratic", "--fit-spectral-pol", "2", "--niter", "20000",
                            "--name", path("out")},
                           &run);
  EXPECT_EQ(json["stop_reason"], "diverged");
  EXPECT_LT(json["iterations"].get<long>(), 20000);
  EXPECT_NE(run.out.find("diverged: a sub-minor loop's peak grew"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("PSF twice the image's size"), std::string::npos) << run.out;
  EXPECT_TRUE(fs::is_regular_file(path("out-MFS-image.fits")));  // the components kept are written
}

}  // namespace
}  // namespace clean_test
