// Small FITS files for the bkt-clean tests, written and read with CFITSIO directly, independent
// of the tool's own FITS code.
#pragma once

#include <fitsio.h>

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace clean_test {

/// A FITS primary image to write. For integer BITPIX, `values` are the stored integers (the
/// physical value is value * bscale + bzero); for -32/-64 the physical values.
struct test_fits {
  int bitpix = -32;
  std::vector<long> axes;
  std::vector<double> values;  // every pixel, FITS order (x fastest, then y, then axes 3 and 4)
  std::vector<std::string> cards;  // extra header cards, e.g. "CTYPE1  = 'RA---SIN'"
  std::optional<double> bscale, bzero;
  std::optional<long> blank;
};

/// Writes `image` with CFITSIO; fails the test on a CFITSIO error.
inline void write_test_fits(const std::filesystem::path& path, const test_fits& image) {
  std::filesystem::remove(path);
  int status = 0;
  fitsfile* file = nullptr;
  fits_create_diskfile(&file, path.c_str(), &status);
  fits_create_img(file, image.bitpix, static_cast<int>(image.axes.size()), const_cast<long*>(image.axes.data()), &status);
  for (const std::string& card : image.cards) fits_write_record(file, card.c_str(), &status);
  if (image.bscale) fits_write_key_dbl(file, "BSCALE", *image.bscale, -15, nullptr, &status);
  if (image.bzero) fits_write_key_dbl(file, "BZERO", *image.bzero, -15, nullptr, &status);
  if (image.blank) fits_write_key_lng(file, "BLANK", *image.blank, nullptr, &status);
  // Store the given numbers as they are: no scaling, no null substitution on the way out.
  fits_set_bscale(file, 1.0, 0.0, &status);
  if (image.bitpix > 0) fits_set_imgnull(file, 0, &status);
  std::vector<double> values = image.values;
  fits_write_img(file, TDOUBLE, 1, static_cast<LONGLONG>(values.size()), values.data(), &status);
  fits_close_file(file, &status);
  char text[FLEN_STATUS] = {};
  fits_get_errstatus(status, text);
  ASSERT_EQ(status, 0) << path << ": " << text;
}

/// The cards of an image of `width` x `height` at 6 arcsec per pixel around RA 204.25, Dec +45,
/// reference pixel at the centre (FITS CRPIX = N/2 + 1), with a FREQ axis 3 and a STOKES axis 4.
inline std::vector<std::string> sky_cards(long width, long height) {
  return {"CTYPE1  = 'RA---SIN'",
          "CRVAL1  = 204.25",
          "CDELT1  = -0.0016666666666667",
          "CRPIX1  = " + std::to_string(width / 2 + 1),
          "CUNIT1  = 'deg'",
          "CTYPE2  = 'DEC--SIN'",
          "CRVAL2  = 45.0",
          "CDELT2  = 0.0016666666666667",
          "CRPIX2  = " + std::to_string(height / 2 + 1),
          "CUNIT2  = 'deg'",
          "CTYPE3  = 'FREQ'",
          "CRVAL3  = 1.4E9",
          "CDELT3  = 1.0E6",
          "CRPIX3  = 1",
          "CUNIT3  = 'Hz'",
          "CTYPE4  = 'STOKES'",
          "CRVAL4  = 1",
          "CDELT4  = 1",
          "CRPIX4  = 1",
          "BUNIT   = 'JY/BEAM'",
          "OBJECT  = 'TEST-FIELD'"};
}

/// A Gaussian PSF of `width` x `height`, peak 1 at (width/2, height/2), FWHM `fwhm` pixels.
inline std::vector<double> gaussian_psf(long width, long height, double fwhm) {
  std::vector<double> values;
  const double k = 4 * std::log(2.0) / (fwhm * fwhm);
  for (long y = 0; y < height; ++y)
    for (long x = 0; x < width; ++x) {
      const double dx = static_cast<double>(x - width / 2), dy = static_cast<double>(y - height / 2);
      values.push_back(std::exp(-k * (dx * dx + dy * dy)));
    }
  return values;
}

/// A dirty image: point sources (x, y, flux) convolved with gaussian_psf's beam.
inline std::vector<double> point_sources(long width, long height, double fwhm,
                                         const std::vector<std::tuple<long, long, double>>& sources) {
  std::vector<double> values(static_cast<std::size_t>(width * height), 0.0);
  const double k = 4 * std::log(2.0) / (fwhm * fwhm);
  for (const auto& [sx, sy, flux] : sources)
    for (long y = 0; y < height; ++y)
      for (long x = 0; x < width; ++x) {
        const double dx = static_cast<double>(x - sx), dy = static_cast<double>(y - sy);
        values[static_cast<std::size_t>(y * width + x)] += flux * std::exp(-k * (dx * dx + dy * dy));
      }
  return values;
}

/// The primary header of a FITS file as 80-character cards (no END); empty when unreadable.
inline std::vector<std::string> read_header_cards(const std::filesystem::path& path) {
  int status = 0, count = 0;
  fitsfile* file = nullptr;
  fits_open_diskfile(&file, path.c_str(), READONLY, &status);
  char* text = nullptr;
  fits_hdr2str(file, 0, nullptr, 0, &text, &count, &status);
  std::vector<std::string> cards;
  if (status == 0)
    for (int i = 0; i < count; ++i) cards.emplace_back(text + 80 * i, 80);
  if (text != nullptr) fits_free_memory(text, &status);
  status = 0;
  if (file != nullptr) fits_close_file(file, &status);
  return cards;
}

/// The value text of `keyword` (quotes removed, trimmed), or nullopt.
inline std::optional<std::string> card_value(const std::vector<std::string>& cards, const std::string& keyword) {
  for (const std::string& card : cards) {
    std::string name = card.substr(0, 8);
    name.erase(name.find_last_not_of(' ') + 1);
    if (name != keyword || card.substr(8, 2) != "= ") continue;
    char value[FLEN_VALUE] = {}, comment[FLEN_COMMENT] = {};
    int status = 0;
    std::string copy = card;  // older CFITSIO takes a non-const card
    fits_parse_value(copy.data(), value, comment, &status);
    std::string text = value;
    if (!text.empty() && text.front() == '\'') {
      text = text.substr(1, text.rfind('\'') - 1);
      text.erase(text.find_last_not_of(' ') + 1);
    }
    return text;
  }
  return std::nullopt;
}

/// Every pixel of a FITS file's primary image as double (NaN for blanks), and its axis lengths.
inline std::vector<double> read_pixels(const std::filesystem::path& path, std::vector<long>* axes = nullptr) {
  int status = 0, num_axes = 0, bitpix = 0;
  fitsfile* file = nullptr;
  fits_open_diskfile(&file, path.c_str(), READONLY, &status);
  long lengths[9] = {};
  fits_get_img_param(file, 9, &bitpix, &num_axes, lengths, &status);
  long count = 1;
  for (int i = 0; i < num_axes; ++i) count *= lengths[i];
  std::vector<double> values(static_cast<std::size_t>(status == 0 ? count : 0));
  double blank = std::nan("");
  int any = 0;
  fits_read_img(file, TDOUBLE, 1, static_cast<LONGLONG>(values.size()), &blank, values.data(), &any, &status);
  if (axes != nullptr) axes->assign(lengths, lengths + num_axes);
  int close_status = 0;
  if (file != nullptr) fits_close_file(file, &close_status);
  EXPECT_EQ(status, 0) << path;
  return values;
}

}  // namespace clean_test
