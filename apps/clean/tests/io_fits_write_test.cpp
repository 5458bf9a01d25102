// Writing outputs: float32 FITS with the input's header kept, BUNIT, BMAJ/BMIN/BPA and HISTORY
// written, layouts of 2 to 4 axes and cubes kept; read back with CFITSIO and with our reader.
#include <gtest/gtest.h>

#include <cmath>

#include "bkt_apps/app_error.hpp"
#include "io/clean_outputs.hpp"
#include "io/fits_header.hpp"
#include "io/fits_image.hpp"
#include "io/fits_write.hpp"
#include "tool_fixture.hpp"

namespace clean_test {
namespace {

using namespace bkt::clean;

class fits_write : public tool_test {
 protected:
  /// Encodes planes with `keys` beside the header of `input`, writes the file, returns its path.
  std::string round_trip(const fits_image& input, const std::vector<image>& planes, const fits_output_keys& keys,
                         std::vector<std::int64_t> lengths = {}) {
    if (lengths.empty()) lengths = input.axis_lengths;
    const std::string out = path("out.fits");
    write_file(out, encode_fits_image(lengths, input.header, planes, keys, out));
    return out;
  }
};

TEST_F(fits_write, planes_and_header_survive) {
  write_test_fits(path("in.fits"), {16, {3, 2, 1, 1}, {1, 2, 3, 4, 5, -32768}, sky_cards(3, 2), 0.5, 0.0, -32768});
  const fits_image input = read_fits_image(path("in.fits"));
  fits_output_keys keys;
  keys.bunit = "JY/PIXEL";
  keys.history = {"bkt-clean 0.1.0: hogbom niter=10", std::string(150, 'a') + " tail"};
  const std::string out = round_trip(input, input.planes, keys);

  EXPECT_EQ(read_file(out).size() % 2880, 0u);
  std::vector<long> axes;
  const auto values = read_pixels(out, &axes);
  EXPECT_EQ(axes, (std::vector<long>{3, 2, 1, 1}));
  EXPECT_EQ(values[0], 0.5);
  EXPECT_EQ(values[4], 2.5);
  EXPECT_TRUE(std::isnan(values[5]));  // a blank integer became NaN, and stays NaN in float

  const auto cards = read_header_cards(out);
  EXPECT_EQ(card_value(cards, "BITPIX"), "-32");
  EXPECT_EQ(card_value(cards, "BUNIT"), "JY/PIXEL");
  EXPECT_EQ(card_value(cards, "OBJECT"), "TEST-FIELD");
  EXPECT_EQ(card_value(cards, "CTYPE1"), "RA---SIN");
  EXPECT_EQ(card_value(cards, "CRVAL3"), "1.4E9");
  // The input's scaling and blank keywords would be wrong for float data.
  EXPECT_EQ(card_value(cards, "BSCALE"), std::nullopt);
  EXPECT_EQ(card_value(cards, "BLANK"), std::nullopt);
  int histories = 0, simple = 0;
  for (const auto& card : cards) {
    histories += card.rfind("HISTORY", 0) == 0;
    simple += card.rfind("SIMPLE", 0) == 0;
  }
  EXPECT_EQ(histories, 4);  // one line, then 150 characters wrapped over two cards plus " tail"
  EXPECT_EQ(simple, 1);
}

TEST_F(fits_write, beam_keywords_in_degrees) {
  write_test_fits(path("in.fits"), {-32, {2, 2}, {1, 2, 3, 4}, sky_cards(2, 2), {}, {}, {}});
  const fits_image input = read_fits_image(path("in.fits"));
  fits_output_keys keys;
  keys.bunit = "JY/BEAM";
  keys.beam = sky_beam{0.0125, 0.0075, -32.5};
  const auto cards = read_header_cards(round_trip(input, input.planes, keys));
  EXPECT_DOUBLE_EQ(std::stod(*card_value(cards, "BMAJ")), 0.0125);
  EXPECT_DOUBLE_EQ(std::stod(*card_value(cards, "BMIN")), 0.0075);
  EXPECT_DOUBLE_EQ(std::stod(*card_value(cards, "BPA")), -32.5);
}

TEST_F(fits_write, two_dimensional_and_float64_inputs) {
  write_test_fits(path("in.fits"), {-64, {2, 3}, {1, 2, 3, 4, 5, 6}, {"OBSERVER= 'someone'"}, {}, {}, {}});
  const fits_image input = read_fits_image(path("in.fits"));
  const std::string out = round_trip(input, input.planes, {});
  std::vector<long> axes;
  EXPECT_EQ(read_pixels(out, &axes), (std::vector<double>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(axes, (std::vector<long>{2, 3}));
  EXPECT_EQ(card_value(read_header_cards(out), "OBSERVER"), "someone");
}

TEST_F(fits_write, cube_layout_kept) {
  write_test_fits(path("cube.fits"), {-32, {2, 1, 2, 1}, {1, 2, 10, 20}, sky_cards(2, 1), {}, {}, {}});
  const fits_image input = read_fits_image(path("cube.fits"));
  const std::string out = round_trip(input, input.planes, {});
  const fits_image back = read_fits_image(out);
  EXPECT_EQ(back.axis_lengths, input.axis_lengths);
  ASSERT_EQ(back.num_planes(), 2);
  EXPECT_EQ(back.planes[1].pixels, (std::vector<float>{10, 20}));
}

TEST_F(fits_write, one_plane_of_a_cube_moves_crpix) {
  write_test_fits(path("cube.fits"), {-32, {2, 1, 3, 1}, {1, 2, 10, 20, 100, 200}, sky_cards(2, 1), {}, {}, {}});
  clean_inputs inputs{read_fits_image(path("cube.fits")), read_fits_image(path("cube.fits")), std::nullopt, {2}};
  std::vector<plane_images> planes(1);
  planes[0].plane = 2;
  planes[0].model = planes[0].residual = planes[0].restored = inputs.dirty.planes[2];
  output_notes notes;
  notes.summary = {{"test", true}};
  bkt::apps::output_set set;
  clean_outputs outputs(output_paths_for(path("p"), ""), set);
  outputs.write(inputs, planes, notes);
  set.commit_all();
  std::vector<long> axes;
  EXPECT_EQ(read_pixels(path("p-restored.fits"), &axes), (std::vector<double>{100, 200}));
  EXPECT_EQ(axes, (std::vector<long>{2, 1, 1, 1}));
  // Plane 2 at CRPIX3 = 1 means the written plane 0 sits at CRPIX3 = 1 - 2: its frequency holds.
  EXPECT_DOUBLE_EQ(std::stod(*card_value(read_header_cards(path("p-restored.fits")), "CRPIX3")), -1.0);
  EXPECT_EQ(card_value(read_header_cards(path("p-model.fits")), "BUNIT"), "JY/PIXEL");
  EXPECT_EQ(card_value(read_header_cards(path("p-residual.fits")), "BUNIT"), "JY/BEAM");
}

TEST_F(fits_write, units_follow_the_input) {
  EXPECT_EQ(units_for(std::nullopt).model, "JY/PIXEL");
  EXPECT_EQ(units_for(std::string("Jy/beam")).image, "JY/BEAM");
  EXPECT_EQ(units_for(std::string("mJy/beam")).model, "mJy/PIXEL");
  EXPECT_EQ(units_for(std::string("mJy/beam")).image, "mJy/beam");
  EXPECT_EQ(units_for(std::string("K")).model, "K");
  EXPECT_EQ(units_for(std::string("K")).image, "K");
}

TEST_F(fits_write, unwritable_directory_leaves_nothing) {
  try {
    bkt::apps::output_set set;
    clean_outputs outputs(output_paths_for(path("missing/p"), ""), set);
    FAIL() << "no error";
  } catch (const bkt::apps::app_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path("missing/p") + "-model.fits: cannot create: ", 0), 0u) << e.what();
  }
  // Created but never written: destroyed without write(), the temporaries go.
  {
    bkt::apps::output_set set;
    clean_outputs outputs(output_paths_for(path("p"), path("plot.png")), set);
  }
  EXPECT_TRUE(listing().empty());
}

}  // namespace
}  // namespace clean_test
