// Reading keywords out of a primary header kept as text: 80-character cards one after another,
// without END, as CFITSIO's fits_hdr2str hands it over and as WCSLIB's wcspih takes it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bkt::clean {

constexpr std::size_t fits_card_length = 80;

/// The cards of `header`, in order (a last, shorter piece counts as a card too).
std::vector<std::string_view> header_cards(std::string_view header);

/// The keyword of a card: its first 8 characters without trailing blanks ("NAXIS1", "HISTORY").
std::string_view card_keyword(std::string_view card);

/// The value of `keyword` in `header` (the first card with it): a string without its quotes and
/// trailing blanks, anything else as written (without the comment); nullopt when absent.
std::optional<std::string> header_value(std::string_view header, std::string_view keyword);

/// The value of `keyword` as a number; nullopt when absent or not a number.
std::optional<double> header_number(std::string_view header, std::string_view keyword);

/// Whether a keyword belongs to the data's layout or encoding (SIMPLE, BITPIX, NAXISn, BSCALE,
/// BLANK, ...) or states something about the pixel values (DATAMIN, BUNIT, BMAJ, CHECKSUM, ...):
/// outputs write their own and do not copy these from the input.
bool is_output_owned_keyword(std::string_view keyword);

}  // namespace bkt::clean
