// Writing an output image: float32 FITS with the input's header (all but the layout keywords),
// the output's own BUNIT, beam and HISTORY, encoded in memory so that the caller can write it
// through a temporary file.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "../image.hpp"
#include "beam_geometry.hpp"

namespace bkt::clean {

/// What an output image states about itself on top of the input's header.
struct fits_output_keys {
  std::string bunit;                                     // empty: none
  std::optional<sky_beam> beam;                          // BMAJ, BMIN, BPA (degrees)
  std::vector<std::pair<std::string, double>> numbers;   // keywords set or replaced (CRPIX3 of one plane)
  std::vector<std::string> history;                      // HISTORY lines, long ones wrapped
};

/// The bytes of a float32 FITS file with axes `axis_lengths` (the product of axes 3 and up must
/// equal planes.size()), the cards of `header` that is_output_owned_keyword does not claim, then
/// `keys`. `name` is for messages. Throws bkt::apps::app_error "NAME: problem".
std::string encode_fits_image(const std::vector<std::int64_t>& axis_lengths, const std::string& header,
                              const std::vector<image>& planes, const fits_output_keys& keys, const std::string& name);

}  // namespace bkt::clean
