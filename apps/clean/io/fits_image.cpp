// fits_image: read_fits_image first checks what CFITSIO would report vaguely (missing file, not
// FITS, truncated), then reads the header as text and every plane as float, NaN for blank pixels.
#include <sys/stat.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "axis_layout.hpp"
#include "bkt_apps/app_error.hpp"
#include "fits_header.hpp"
#include "fits_image.hpp"
#include "fits_status.hpp"

namespace bkt::clean {
namespace {

using bkt::apps::app_error;

constexpr std::int64_t fits_block_bytes = 2880;

/// The file's size, after checking that it exists, is a regular file and starts like FITS.
std::int64_t check_fits_file(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) throw app_error(path + ": cannot open: " + std::strerror(errno));
  if (S_ISDIR(info.st_mode)) throw app_error(path + ": is a directory, not a FITS file");
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) throw app_error(path + ": cannot open: " + std::strerror(errno));
  char start[10] = {};
  const std::size_t got = std::fread(start, 1, sizeof start, file);
  std::fclose(file);
  // Every FITS file starts with the card "SIMPLE  =": anything else (including a gzip file that
  // CFITSIO would silently unpack) is refused here with a clear message.
  if (got < sizeof start || std::memcmp(start, "SIMPLE  = ", sizeof start) != 0)
    throw app_error(path + ": not a FITS file (it does not start with SIMPLE =)");
  const auto size = static_cast<std::int64_t>(info.st_size);
  if (size < fits_block_bytes)
    throw app_error(path + ": truncated FITS file: " + std::to_string(size) + " bytes, less than one " +
                    std::to_string(fits_block_bytes) + "-byte header block");
  return size;
}

std::vector<std::string> axis_types(const std::string& header, std::size_t num_axes) {
  std::vector<std::string> types;
  for (std::size_t axis = 1; axis <= num_axes; ++axis)
    types.push_back(header_value(header, "CTYPE" + std::to_string(axis)).value_or(""));
  return types;
}

std::string read_header_text(fitsfile* file, const std::string& path) {
  int status = 0, num_keys = 0;
  char* cards = nullptr;
  fits_hdr2str(file, 0, nullptr, 0, &cards, &num_keys, &status);
  check_fits(status, path, "cannot read the header");
  std::string header(cards);
  fits_free_memory(cards, &status);
  // fits_hdr2str ends with the END card; keep the keywords only.
  if (header.size() >= fits_card_length && header.compare(header.size() - fits_card_length, 3, "END") == 0)
    header.resize(header.size() - fits_card_length);
  return header;
}

}  // namespace

std::vector<std::int64_t> fits_image::plane_position(std::int64_t plane) const {
  std::vector<std::int64_t> position;
  for (std::size_t axis = 2; axis < axis_lengths.size(); ++axis) {
    position.push_back(plane % axis_lengths[axis]);
    plane /= axis_lengths[axis];
  }
  return position;
}

namespace {

/// An opened file whose header passed every check, and what reading its planes needs.
struct opened_image {
  fits_handle file;
  int bitpix = 0;
  fits_image image;  // planes still empty
};

opened_image open_image(const std::string& path) {
  const std::int64_t file_bytes = check_fits_file(path);
  int status = 0;
  fitsfile* handle = nullptr;
  // The disk-file form: the name is taken literally, not as CFITSIO's extended syntax
  // (so "image[1].fits" or "x.fits+2" mean those files).
  fits_open_diskfile(&handle, path.c_str(), READONLY, &status);
  opened_image opened{fits_handle(handle), 0, {}};
  if (status != 0) throw app_error(path + ": not a readable FITS file: " + fits_status_text(status));
  fitsfile* file = opened.file.get();

  int num_axes = 0;
  long long lengths[9] = {};
  fits_get_img_paramll(file, 9, &opened.bitpix, &num_axes, lengths, &status);
  check_fits(status, path, "cannot read the image parameters");
  if (num_axes < 2 || num_axes > 4)
    throw app_error(path + ": NAXIS = " + std::to_string(num_axes) + ": bkt-clean reads images of 2 to 4 axes");

  fits_image& result = opened.image;
  result.name = path;
  result.axis_lengths.assign(lengths, lengths + num_axes);
  for (std::int64_t length : result.axis_lengths)
    if (length < 1) throw app_error(path + ": empty image (an axis of length " + std::to_string(length) + ")");
  result.header = read_header_text(file, path);
  check_axis_layout(path, result.axis_lengths, axis_types(result.header, result.axis_lengths.size()));
  // CFITSIO would scale every pixel by 0 without a word: an image of BZERO alone.
  if (const auto bscale = header_number(result.header, "BSCALE"); bscale && *bscale == 0)
    throw app_error(path + ": BSCALE = 0 would make every pixel BZERO; a FITS image's BSCALE is never 0");

  const std::int64_t num_pixels = pixel_count(result);
  long long header_start = 0, data_start = 0, data_end = 0;
  fits_get_hduaddrll(file, &header_start, &data_start, &data_end, &status);
  check_fits(status, path, "cannot locate the data");
  // The padding after the last pixel is not needed to read the image, so it is not required.
  const std::int64_t data_bytes = num_pixels * (opened.bitpix < 0 ? -opened.bitpix : opened.bitpix) / 8;
  if (file_bytes < data_start + data_bytes)
    throw app_error(path + ": truncated FITS file: " + std::to_string(file_bytes) + " bytes, the header and data need " +
                    std::to_string(data_start + data_bytes));
  return opened;
}

/// Whether pixels reach float unchanged: float32 without BSCALE/BZERO. Otherwise an infinity
/// read may be a finite value beyond float's range.
bool stored_as_read(const opened_image& opened) {
  const auto scale = header_number(opened.image.header, "BSCALE");
  const auto zero = header_number(opened.image.header, "BZERO");
  return opened.bitpix == -32 && scale.value_or(1) == 1 && zero.value_or(0) == 0;
}

/// Refuses the first infinite pixel of `pixels`: FITS marks a blank with NaN (or BLANK), so an
/// infinity is a broken value, and CLEAN would spread it over the whole residual.
void check_finite(const image& pixels, const opened_image& opened, std::int64_t plane, std::int64_t num_planes) {
  for (std::int64_t i = 0; i < pixels.size(); ++i) {
    const float value = pixels.pixels[static_cast<std::size_t>(i)];
    if (!std::isinf(value)) continue;
    throw app_error(opened.image.name + ": " + (value > 0 ? "+inf" : "-inf") + " at pixel (" +
                    std::to_string(i % pixels.width) + ", " + std::to_string(i / pixels.width) + ")" +
                    (num_planes > 1 ? " of plane " + std::to_string(plane) : std::string()) +
                    (stored_as_read(opened) ? "" : " (as float32: infinite or beyond 3.4e38 as stored)") +
                    ": infinite pixels are not data (blank pixels are NaN)");
  }
}

}  // namespace

std::int64_t pixel_count(const fits_image& file) {
  std::int64_t num_pixels = 1;
  for (std::int64_t length : file.axis_lengths) {
    if (num_pixels > std::numeric_limits<std::int64_t>::max() / 8 / length)
      throw app_error(file.name + ": image too large: its axes hold more than 2^60 pixels");
    num_pixels *= length;
  }
  return num_pixels;
}

fits_image read_fits_header(const std::string& path) { return std::move(open_image(path).image); }

fits_image read_fits_image(const std::string& path) {
  opened_image opened = open_image(path);
  fits_image& result = opened.image;
  const std::int64_t width = result.width(), height = result.height();
  const std::int64_t num_planes = pixel_count(result) / (width * height);
  std::vector<long long> first_pixel(result.axis_lengths.size(), 1);
  // Integer pixels: CFITSIO turns BLANK into this NaN. Floating-point pixels are read as stored
  // (no null value), so that NaN stays NaN and an infinity stays one, to be refused below; with a
  // null value CFITSIO would turn every IEEE special value, infinities too, into it.
  float blank = std::numeric_limits<float>::quiet_NaN();
  float* const null_value = opened.bitpix > 0 ? &blank : nullptr;
  int status = 0;
  for (std::int64_t plane = 0; plane < num_planes; ++plane) {
    const auto position = result.plane_position(plane);
    for (std::size_t axis = 0; axis < position.size(); ++axis) first_pixel[axis + 2] = position[axis] + 1;
    image pixels{width, height, std::vector<float>(static_cast<std::size_t>(width * height))};
    int any_blank = 0;
    // As TFLOAT, CFITSIO applies BSCALE/BZERO.
    fits_read_pixll(opened.file.get(), TFLOAT, first_pixel.data(), width * height, null_value, pixels.pixels.data(),
                    &any_blank, &status);
    check_fits(status, path, "cannot read plane " + std::to_string(plane));
    check_finite(pixels, opened, plane, num_planes);
    result.planes.push_back(std::move(pixels));
  }
  return std::move(result);
}

}  // namespace bkt::clean
