// encode_fits_image: CFITSIO writes into a memory file (fits_create_memfile) whose bytes we hand
// back; bkt::apps::output_file then gives them the temporary-then-rename treatment.
#include "fits_write.hpp"

#include <cstdlib>
#include <memory>
#include <utility>

#include "bkt_apps/app_error.hpp"
#include "fits_header.hpp"
#include "fits_status.hpp"

namespace bkt::clean {
namespace {

constexpr std::size_t fits_block_bytes = 2880;

/// CFITSIO's own two COMMENT cards about the FITS reference, which fits_create_img writes again.
bool is_standard_comment(std::string_view card) {
  return card_keyword(card) == "COMMENT" &&
         (card.find("FITS (Flexible Image Transport System)") != std::string_view::npos ||
          card.find("and Astrophysics', volume 376, page 359") != std::string_view::npos);
}

void copy_cards(fitsfile* file, const std::string& header) {
  for (const std::string_view card : header_cards(header)) {
    const std::string_view keyword = card_keyword(card);
    if (keyword.empty() && card.find_first_not_of(' ') == std::string_view::npos) continue;  // blank card
    if (is_output_owned_keyword(keyword) || is_standard_comment(card)) continue;
    const std::string text(card);
    int status = 0;
    fits_write_record(file, text.c_str(), &status);
    // A card CFITSIO refuses (an illegal keyword from a sloppy writer) is left out rather than
    // failing the whole run over one card.
    if (status != 0) fits_clear_errmsg();
  }
}

/// `text` cut at spaces into pieces that fit a HISTORY card (a word longer than that is cut), so
/// that CFITSIO does not split words itself.
std::vector<std::string> wrap_history(const std::string& text) {
  constexpr std::size_t card_text = 70;
  std::vector<std::string> lines;
  std::string current;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    std::string word = text.substr(start, end - start);
    start = end + 1;
    while (word.size() > card_text) {
      if (!current.empty()) lines.push_back(std::exchange(current, {}));
      lines.push_back(word.substr(0, card_text));
      word.erase(0, card_text);
    }
    if (!current.empty() && current.size() + 1 + word.size() > card_text) lines.push_back(std::exchange(current, {}));
    current += (current.empty() ? "" : " ") + word;
  }
  if (!current.empty()) lines.push_back(current);
  return lines;
}

void write_keys(fitsfile* file, const fits_output_keys& keys, int& status) {
  if (!keys.bunit.empty())
    fits_update_key_str(file, "BUNIT", keys.bunit.c_str(), "units of the pixel values", &status);
  if (keys.beam) {
    // Negative decimals: CFITSIO's %G-style, 12 significant digits.
    fits_update_key_dbl(file, "BMAJ", keys.beam->major_deg, -12, "restoring beam major axis FWHM (deg)", &status);
    fits_update_key_dbl(file, "BMIN", keys.beam->minor_deg, -12, "restoring beam minor axis FWHM (deg)", &status);
    fits_update_key_dbl(file, "BPA", keys.beam->position_angle_deg, -12, "restoring beam angle, east of north (deg)",
                        &status);
  }
  for (const auto& [keyword, value] : keys.numbers)
    fits_update_key_dbl(file, keyword.c_str(), value, -15, nullptr, &status);
  for (const std::string& text : keys.history)
    for (const std::string& line : wrap_history(text)) fits_write_history(file, line.c_str(), &status);
}

}  // namespace

std::string encode_fits_image(const std::vector<std::int64_t>& axis_lengths, const std::string& header,
                              const std::vector<image>& planes, const fits_output_keys& keys, const std::string& name) {
  // CFITSIO owns and grows the buffer through realloc while the file is open; we free it.
  std::size_t buffer_bytes = fits_block_bytes;
  void* buffer = std::malloc(buffer_bytes);
  if (buffer == nullptr) throw std::bad_alloc();
  const std::unique_ptr<void*, void (*)(void**)> free_buffer(&buffer, [](void** pointer) { std::free(*pointer); });

  int status = 0;
  fitsfile* created = nullptr;
  fits_create_memfile(&created, &buffer, &buffer_bytes, 16 * fits_block_bytes, std::realloc, &status);
  fits_handle file(created);
  check_fits(status, name, "cannot create");

  std::vector<long long> lengths(axis_lengths.begin(), axis_lengths.end());
  fits_create_imgll(file.get(), FLOAT_IMG, static_cast<int>(lengths.size()), lengths.data(), &status);
  check_fits(status, name, "cannot create the image");
  copy_cards(file.get(), header);
  write_keys(file.get(), keys, status);
  check_fits(status, name, "cannot write the header");

  std::vector<long long> first_pixel(lengths.size(), 1);
  for (std::size_t plane = 0; plane < planes.size(); ++plane) {
    auto index = static_cast<std::int64_t>(plane);
    for (std::size_t axis = 2; axis < lengths.size(); ++axis) {
      first_pixel[axis] = index % lengths[axis] + 1;
      index /= lengths[axis];
    }
    auto& pixels = const_cast<std::vector<float>&>(planes[plane].pixels);  // CFITSIO's API is not const
    fits_write_pixll(file.get(), TFLOAT, first_pixel.data(), static_cast<long long>(pixels.size()), pixels.data(),
                     &status);
    check_fits(status, name, "cannot write plane " + std::to_string(plane));
  }
  fits_flush_file(file.get(), &status);
  long long header_start = 0, data_start = 0, data_end = 0;
  fits_get_hduaddrll(file.get(), &header_start, &data_start, &data_end, &status);
  check_fits(status, name, "cannot finish");
  file.reset();  // closing writes the last block into the buffer
  // data_end is the end of the data unit, padded to whole 2880-byte blocks.
  return std::string(static_cast<const char*>(buffer), static_cast<std::size_t>(data_end));
}

}  // namespace bkt::clean
