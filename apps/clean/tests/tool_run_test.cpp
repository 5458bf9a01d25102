// Whole runs of the built tool on the CPU (--cpu, so that they pass without a GPU): the project's
// simulated Y-array field, and small synthetic fields that check masks, thresholds, beams, cubes
// and the layout of every output.
#include <nlohmann/json.hpp>

#include <cmath>
#include <set>

#include "tool_fixture.hpp"

namespace clean_test {
namespace {

constexpr long side = 48;
constexpr double beam_fwhm = 3;  // pixels

/// The numbers of a "label   value ..." line of the text summary.
std::string summary_value(const std::string& summary, const std::string& label) {
  for (const std::string& line : lines_of(summary))
    if (line.rfind("  " + label + " ", 0) == 0) {
      const std::string rest = line.substr(2 + label.size());
      return rest.substr(rest.find_first_not_of(' '));
    }
  return "";
}

class clean_runs : public tool_test {
 protected:
  void SetUp() override {
    tool_test::SetUp();
    write_test_fits(path("dirty.fits"), {-32, {side, side, 1, 1}, field(), sky_cards(side, side), {}, {}, {}});
    write_test_fits(path("psf.fits"),
                    {-32, {side, side, 1, 1}, gaussian_psf(side, side, beam_fwhm), sky_cards(side, side), {}, {}, {}});
  }

  /// Two point sources, 2 and -0.5 (image units), with the PSF's shape.
  static std::vector<double> field() { return point_sources(side, side, beam_fwhm, {{12, 30, 2.0}, {33, 14, -0.5}}); }

  /// Runs --cpu with --json FILE; expects success and returns the parsed JSON.
  nlohmann::json run_ok(std::vector<std::string> arguments, tool_run* run_out = nullptr) {
    arguments.insert(arguments.end(), {"--cpu", "--json", path("summary.json")});
    const tool_run run = run_clean_tool(arguments);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.err, "");
    if (run_out != nullptr) *run_out = run;
    try {
      return nlohmann::json::parse(read_file(path("summary.json")));
    } catch (const std::exception& e) {
      ADD_FAILURE() << "summary is not JSON: " << e.what();
      return nlohmann::json::object();
    }
  }

  /// The (x, y) of every component in P-components.json.
  std::set<std::pair<long, long>> component_pixels(const std::string& prefix) {
    std::set<std::pair<long, long>> pixels;
    const auto document = nlohmann::json::parse(read_file(path(prefix + "-components.json")));
    for (const auto& component : document["components"])
      pixels.emplace(component["x"].get<long>(), component["y"].get<long>());
    return pixels;
  }
};

TEST_F(clean_runs, yarray_simulation_end_to_end) {
  const std::string data = std::string(BKT_DATA_DIR) + "/clean/yarray-sim-256/";
  tool_run run;
  const auto json = run_ok({data + "sim-dirty.fits", data + "sim-psf.fits", "--prefix", path("sim"), "--niter", "200",
                            "--plot", path("sim.png")},
                           &run);
  for (const char* suffix : {"-model.fits", "-residual.fits", "-image.fits", "-sources.txt", "-components.json"})
    EXPECT_TRUE(std::filesystem::exists(path(std::string("sim") + suffix))) << suffix;
  // The restored image's former name, kept for one release, leads to it.
  EXPECT_EQ(std::filesystem::read_symlink(path("sim-restored.fits")), "sim-image.fits");
  EXPECT_EQ(read_file(path("sim.png")).substr(1, 3), "PNG");

  // The text summary and the JSON agree.
  EXPECT_EQ(summary_value(run.out, "iterations"), "200");
  EXPECT_EQ(json["iterations"], 200);
  EXPECT_EQ(json["components"], 200);
  EXPECT_EQ(json["device"], "cpu");
  EXPECT_EQ(json["algorithm"], "hogbom");
  EXPECT_EQ(json["stop_reason"], "niter");
  EXPECT_EQ(json["width"], 256);
  EXPECT_GT(json["peak_residual"].get<double>(), 0);
  EXPECT_GT(json["residual_rms"].get<double>(), 0);
  EXPECT_GT(json["beam"]["major_arcsec"].get<double>(), json["beam"]["minor_arcsec"].get<double>() - 1e-9);
  EXPECT_NE(summary_value(run.out, "beam").find("\" x "), std::string::npos) << run.out;
  EXPECT_NE(summary_value(run.out, "time").find(" s"), std::string::npos);

  // One source-list line per component pixel, the same pixels as the JSON list.
  const auto pixels = json["component_pixels"].get<std::size_t>();
  EXPECT_GT(pixels, 0u);
  EXPECT_EQ(lines_of(read_file(path("sim-sources.txt"))).size(), pixels + 1);
  const auto components = nlohmann::json::parse(read_file(path("sim-components.json")));
  EXPECT_EQ(components["components"].size(), pixels);
  EXPECT_EQ(components["summary"]["iterations"], 200);
  EXPECT_TRUE(components["components"][0]["ra_deg"].is_number());

  // The outputs keep the dirty image's header and state their units and beam.
  const auto restored = read_header_cards(path("sim-restored.fits"));
  EXPECT_EQ(card_value(restored, "OBJECT"), "YARRAY-SIM");
  EXPECT_EQ(card_value(restored, "CTYPE3"), "FREQ");
  EXPECT_EQ(card_value(restored, "BUNIT"), "JY/BEAM");
  EXPECT_NEAR(std::stod(*card_value(restored, "BMAJ")) * 3600, json["beam"]["major_arcsec"].get<double>(), 1e-6);
  EXPECT_TRUE(card_value(restored, "BPA"));
  EXPECT_EQ(card_value(read_header_cards(path("sim-model.fits")), "BUNIT"), "JY/PIXEL");
  std::vector<long> axes;
  EXPECT_EQ(read_pixels(path("sim-residual.fits"), &axes).size(), 256u * 256u);
  EXPECT_EQ(axes, (std::vector<long>{256, 256, 1, 1}));
}

TEST_F(clean_runs, real_image_with_its_header_beam_as_the_psf) {
  // PyBDSF's LOFAR test image carries no PSF: --psf-beam uses its BMAJ/BMIN/BPA Gaussian, and the
  // beam fitted to that PSF is the header's own.
  const std::string image = std::string(BKT_DATA_DIR) + "/clean/pybdsf-test-image/ch0_I.fits";
  const auto json = run_ok({image, "--psf-beam", "--prefix", path("lofar"), "--niter", "300"});
  EXPECT_EQ(json["iterations"], 300);
  EXPECT_EQ(json["width"], 129);
  const auto cards = read_header_cards(image);
  const auto restored = read_header_cards(path("lofar-restored.fits"));
  for (const char* keyword : {"BMAJ", "BMIN"})
    EXPECT_NEAR(std::stod(*card_value(restored, keyword)), std::stod(*card_value(cards, keyword)),
                0.02 * std::stod(*card_value(cards, keyword)))
        << keyword;
  EXPECT_EQ(json["stop_reason"], "niter");
  EXPECT_TRUE(std::isfinite(json["peak_residual"].get<double>()));
}

TEST_F(clean_runs, header_beam_psf_recovers_point_sources) {
  std::vector<std::string> cards = sky_cards(side, side);
  // 3 pixels of 6 arcsec: BMAJ = BMIN = 18 arcsec.
  cards.insert(cards.end(), {"BMAJ    = 0.005", "BMIN    = 0.005", "BPA     = 0.0"});
  write_test_fits(path("beamed.fits"), {-32, {side, side, 1, 1}, field(), cards, {}, {}, {}});
  const auto json = run_ok({path("beamed.fits"), "--psf-beam", "--prefix", path("p"), "--niter", "500",
                            "--threshold", "0.01"});
  EXPECT_EQ(json["stop_reason"], "threshold");
  EXPECT_NEAR(json["beam"]["major_pixels"].get<double>(), beam_fwhm, 0.1);
  const auto pixels = component_pixels("p");
  EXPECT_TRUE(pixels.count({12, 30})) << "the 2.0 source";
  EXPECT_TRUE(pixels.count({33, 14})) << "the -0.5 source";
}

TEST_F(clean_runs, name_is_wscleans_spelling_of_prefix) {
  const auto json = run_ok({path("dirty.fits"), path("psf.fits"), "--name", path("w"), "--niter", "5"});
  EXPECT_EQ(json["iterations"], 5);
  for (const char* suffix : {"-model.fits", "-residual.fits", "-restored.fits", "-sources.txt", "-components.json"})
    EXPECT_TRUE(std::filesystem::exists(path(std::string("w") + suffix))) << suffix;
}

TEST_F(clean_runs, json_to_standard_output_replaces_the_text) {
  const tool_run run = run_clean_tool({path("dirty.fits"), path("psf.fits"), "--cpu", "--prefix", path("p"), "--niter",
                                       "5", "--json", "-"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(nlohmann::json::parse(run.out)["iterations"], 5);
}

TEST_F(clean_runs, threshold_stops_and_finds_both_sources) {
  const auto json = run_ok({path("dirty.fits"), path("psf.fits"), "--prefix", path("p"), "--threshold", "0.01"});
  EXPECT_EQ(json["stop_reason"], "threshold");
  EXPECT_LE(json["peak_residual"].get<double>(), 0.01);
  EXPECT_DOUBLE_EQ(json["threshold"].get<double>(), 0.01);
  const auto pixels = component_pixels("p");
  EXPECT_TRUE(pixels.count({12, 30})) << "the bright source";
  EXPECT_TRUE(pixels.count({33, 14})) << "the negative source";
  // The brightest line of the source list is the 2 Jy source (cleaned down to ~2).
  const auto lines = lines_of(read_file(path("p-sources.txt")));
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(lines[1].rfind("s0c0,POINT,", 0), 0u);
}

// The simulated 4-channel field WSClean deconvolved (data/clean/README.md): its channel-integrated
// dirty image and PSF, with 1.4 to 3.1 mJy of noise under the sources' sidelobes.
const std::string wsclean_field = std::string(BKT_DATA_DIR) + "/clean/wsclean-sim-4ch/";

TEST_F(clean_runs, auto_threshold_is_measured_each_cycle_and_reported) {
  tool_run run;
  const auto json = run_ok({wsclean_field + "sim-MFS-dirty.fits", wsclean_field + "sim-MFS-psf.fits", "--prefix",
                            path("p"), "--auto-threshold", "3", "--niter", "20000"},
                           &run);
  const auto& cycles = json["noise_cycles"];
  ASSERT_GE(cycles.size(), 2u) << json.dump();
  for (const auto& cycle : cycles) {
    EXPECT_DOUBLE_EQ(cycle["level"].get<double>(), 3 * cycle["sigma"].get<double>());
    EXPECT_FALSE(cycle["masked"].get<bool>());
  }
  // WSClean's first estimate on this field (wsclean.log): 3.11 mJy; later ones fall.
  EXPECT_NEAR(cycles.front()["sigma"].get<double>(), 3.11e-3, 0.01e-3);
  EXPECT_LT(cycles.back()["sigma"].get<double>(), 0.8 * cycles.front()["sigma"].get<double>());
  EXPECT_DOUBLE_EQ(json["noise_sigma"].get<double>(), cycles.back()["sigma"].get<double>());
  EXPECT_DOUBLE_EQ(json["threshold"].get<double>(), cycles.back()["level"].get<double>());
  EXPECT_EQ(json["stop_reason"], "threshold");
  EXPECT_LE(json["peak_residual"].get<double>(), json["threshold"].get<double>());
  EXPECT_NE(summary_value(run.out, "threshold").find("MAD noise"), std::string::npos) << run.out;
  EXPECT_NE(summary_value(run.out, "noise").find("per cycle"), std::string::npos) << run.out;
}

TEST_F(clean_runs, auto_mask_cleans_deeper_only_where_components_are) {
  const std::vector<std::string> inputs = {wsclean_field + "sim-MFS-dirty.fits", wsclean_field + "sim-MFS-psf.fits"};
  auto masked_run = inputs;
  masked_run.insert(masked_run.end(), {"--prefix", path("m"), "--auto-threshold", "1", "--auto-mask", "3", "--niter",
                                       "20000"});
  const auto json = run_ok(masked_run);
  const auto& cycles = json["noise_cycles"];
  ASSERT_FALSE(cycles.empty());
  ASSERT_TRUE(cycles.back()["masked"].get<bool>()) << json.dump();
  EXPECT_EQ(json["stop_reason"], "threshold");
  EXPECT_DOUBLE_EQ(json["threshold"].get<double>(), cycles.back()["level"].get<double>());
  // A run that stops at 3 sigma takes the same components up to the mask: they hold every pixel
  // of the deeper run.
  auto shallow_run = inputs;
  shallow_run.insert(shallow_run.end(), {"--prefix", path("s"), "--auto-threshold", "3", "--niter", "20000"});
  const auto shallow = run_ok(shallow_run);
  const auto before = component_pixels("s");
  for (const auto& pixel : component_pixels("m")) EXPECT_TRUE(before.count(pixel)) << pixel.first << "," << pixel.second;
  EXPECT_GT(json["iterations"].get<std::int64_t>(), shallow["iterations"].get<std::int64_t>());
  // Against WSClean's multiscale run on the same field (data/clean/README.md: 1.354 mJy left,
  // 1.825 Jy of the true 1.80 Jy): point components get within 15 % of its noise and hold over
  // 85 % of the flux.
  EXPECT_LT(json["noise_sigma"].get<double>(), 1.15 * 1.354e-3);
  EXPECT_GT(json["model_flux"].get<double>(), 0.85 * 1.80);
}

TEST_F(clean_runs, mask_box_and_mask_file_limit_components) {
  run_ok({path("dirty.fits"), path("psf.fits"), "--prefix", path("box"), "--mask-box", "5,25,20,35", "--niter", "50"});
  for (const auto& [x, y] : component_pixels("box")) {
    EXPECT_TRUE(x >= 5 && x <= 20 && y >= 25 && y <= 35) << x << "," << y;
  }
  std::vector<double> mask(side * side, 0.0);
  for (long y = 10; y < 20; ++y)
    for (long x = 28; x < 38; ++x) mask[y * side + x] = 1;
  write_test_fits(path("mask.fits"), {-32, {side, side}, mask, {}, {}, {}, {}});
  run_ok({path("dirty.fits"), path("psf.fits"), "--prefix", path("mask"), "--mask", path("mask.fits"), "--niter", "50"});
  const auto pixels = component_pixels("mask");
  EXPECT_FALSE(pixels.empty());
  for (const auto& [x, y] : pixels) EXPECT_TRUE(x >= 28 && x < 38 && y >= 10 && y < 20) << x << "," << y;
  // Both: the intersection, here empty, so nothing is cleaned.
  const auto none = run_ok({path("dirty.fits"), path("psf.fits"), "--prefix", path("both"), "--mask", path("mask.fits"),
                            "--mask-box", "0,0,5,5"});
  EXPECT_EQ(none["iterations"], 0);
  EXPECT_EQ(none["stop_reason"], "no_pixels");
}

TEST_F(clean_runs, given_beam_is_written_as_given) {
  const auto json =
      run_ok({path("dirty.fits"), path("psf.fits"), "--prefix", path("p"), "--niter", "10", "--beam", "30,20,45"});
  EXPECT_EQ(json["beam"]["source"], "given");
  EXPECT_NEAR(json["beam"]["pa_deg"].get<double>(), 45, 1e-9);
  const auto cards = read_header_cards(path("p-restored.fits"));
  EXPECT_NEAR(std::stod(*card_value(cards, "BMAJ")), 30.0 / 3600, 1e-12);
  EXPECT_NEAR(std::stod(*card_value(cards, "BMIN")), 20.0 / 3600, 1e-12);
  EXPECT_NEAR(std::stod(*card_value(cards, "BPA")), 45, 1e-9);
  // 6 arcsec pixels: 30 arcsec is 5 pixels.
  EXPECT_NEAR(json["beam"]["major_pixels"].get<double>(), 5, 1e-6);
}

TEST_F(clean_runs, fitted_beam_matches_the_gaussian_psf) {
  const auto json = run_ok({path("dirty.fits"), path("psf.fits"), "--prefix", path("p"), "--niter", "10"});
  EXPECT_EQ(json["beam"]["source"], "fitted");
  EXPECT_NEAR(json["beam"]["major_pixels"].get<double>(), beam_fwhm, 0.5);
  EXPECT_NEAR(json["beam"]["major_arcsec"].get<double>(), beam_fwhm * 6, 3);
}

TEST_F(clean_runs, cube_planes_and_one_plane) {
  const auto plane0 = field();
  auto cube = plane0;
  for (double value : point_sources(side, side, beam_fwhm, {{20, 20, 1.0}})) cube.push_back(value);
  write_test_fits(path("cube.fits"), {-32, {side, side, 2, 1}, cube, sky_cards(side, side), {}, {}, {}});
  const auto all = run_ok({path("cube.fits"), path("psf.fits"), "--prefix", path("all"), "--niter", "20"});
  ASSERT_EQ(all["planes"].size(), 2u);
  EXPECT_EQ(all["iterations"], 40);
  std::vector<long> axes;
  read_pixels(path("all-restored.fits"), &axes);
  EXPECT_EQ(axes, (std::vector<long>{side, side, 2, 1}));
  const auto components = nlohmann::json::parse(read_file(path("all-components.json")))["components"];
  std::set<long> planes;
  for (const auto& component : components) planes.insert(component["plane"].get<long>());
  EXPECT_EQ(planes, (std::set<long>{0, 1}));

  const auto one = run_ok({path("cube.fits"), path("psf.fits"), "--prefix", path("one"), "--niter", "20", "--plane", "1"});
  ASSERT_EQ(one["planes"].size(), 1u);
  EXPECT_EQ(one["planes"][0]["plane"], 1);
  read_pixels(path("one-model.fits"), &axes);
  EXPECT_EQ(axes, (std::vector<long>{side, side, 1, 1}));
  // The written plane keeps its frequency: CRPIX3 moved from 1 to 0.
  EXPECT_DOUBLE_EQ(std::stod(*card_value(read_header_cards(path("one-model.fits")), "CRPIX3")), 0.0);
  EXPECT_EQ(component_pixels("one"), (std::set<std::pair<long, long>>{{20, 20}}));
}

TEST_F(clean_runs, blank_plane_of_a_cube_is_passed_through) {
  auto cube = field();
  cube.insert(cube.end(), side * side, std::nan(""));
  write_test_fits(path("cube.fits"), {-32, {side, side, 1, 2}, cube, sky_cards(side, side), {}, {}, {}});
  const auto json = run_ok({path("cube.fits"), path("psf.fits"), "--prefix", path("p"), "--niter", "10"});
  ASSERT_EQ(json["planes"].size(), 2u);
  EXPECT_FALSE(json["planes"][0]["skipped"].get<bool>());
  EXPECT_TRUE(json["planes"][1]["skipped"].get<bool>());
  EXPECT_FALSE(json["notes"].empty());
  const auto restored = read_pixels(path("p-restored.fits"));
  ASSERT_EQ(restored.size(), 2u * side * side);
  EXPECT_TRUE(std::isnan(restored[side * side + 7]));
  EXPECT_FALSE(std::isnan(restored[7]));
}

TEST_F(clean_runs, psf_twice_the_image_size) {
  write_test_fits(path("psf2.fits"), {-32, {2 * side, 2 * side, 1, 1}, gaussian_psf(2 * side, 2 * side, beam_fwhm),
                                      sky_cards(2 * side, 2 * side), {}, {}, {}});
  const auto json = run_ok({path("dirty.fits"), path("psf2.fits"), "--prefix", path("p"), "--threshold", "0.01"});
  EXPECT_EQ(json["stop_reason"], "threshold");
  EXPECT_TRUE(component_pixels("p").count({12, 30}));
}

TEST_F(clean_runs, nan_pixels_stay_nan_and_scaled_integers_work) {
  auto values = field();
  std::vector<double> stored;
  for (double value : values) stored.push_back(std::round(value * 10000));
  stored[3] = -32768;  // BLANK
  write_test_fits(path("int16.fits"), {16, {side, side, 1, 1}, stored, sky_cards(side, side), 1e-4, 0.0, -32768});
  run_ok({path("int16.fits"), path("psf.fits"), "--prefix", path("p"), "--niter", "20"});
  const auto residual = read_pixels(path("p-residual.fits"));
  EXPECT_TRUE(std::isnan(residual[3]));
  EXPECT_FALSE(std::isnan(residual[4]));
  EXPECT_TRUE(std::isnan(read_pixels(path("p-restored.fits"))[3]));
}

TEST_F(clean_runs, no_celestial_wcs_gives_pixel_positions) {
  write_test_fits(path("plain.fits"), {-32, {side, side}, field(), {}, {}, {}, {}});
  write_test_fits(path("plain-psf.fits"), {-32, {side, side}, gaussian_psf(side, side, beam_fwhm), {}, {}, {}, {}});
  tool_run run;
  const auto json = run_ok({path("plain.fits"), path("plain-psf.fits"), "--prefix", path("p"), "--niter", "10"}, &run);
  EXPECT_FALSE(json["notes"].empty());
  EXPECT_NE(run.out.find("no celestial WCS"), std::string::npos);
  EXPECT_FALSE(json["beam"].contains("major_arcsec"));
  const auto components = nlohmann::json::parse(read_file(path("p-components.json")));
  EXPECT_TRUE(components["components"][0]["ra_deg"].is_null());
  EXPECT_EQ(card_value(read_header_cards(path("p-restored.fits")), "BMAJ"), std::nullopt);
}

TEST_F(clean_runs, plot_format_by_extension) {
  run_ok({path("dirty.fits"), path("psf.fits"), "--prefix", path("p"), "--niter", "5", "--plot", path("look.svg")});
  const std::string svg = read_file(path("look.svg"));
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_NE(svg.find("<svg "), std::string::npos);
  EXPECT_NE(svg.find("data:image/png;base64,iVBORw0KGgo"), std::string::npos);  // the images, embedded as PNG
  run_ok({path("dirty.fits"), path("psf.fits"), "--prefix", path("q"), "--niter", "5", "--plot", path("look.PDF")});
  EXPECT_EQ(read_file(path("look.PDF")).rfind("%PDF-", 0), 0u);
}

}  // namespace
}  // namespace clean_test
