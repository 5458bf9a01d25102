#include "fits_header.hpp"

#include <algorithm>
#include <array>
#include <charconv>

namespace bkt::clean {
namespace {

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(' ');
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(' ');
  return text.substr(first, last - first + 1);
}

/// The value part of a card with "= " in columns 9-10, comment removed.
std::string parse_value(std::string_view card) {
  std::string_view rest = card.size() > 10 ? card.substr(10) : std::string_view{};
  rest = rest.substr(std::min(rest.size(), rest.find_first_not_of(' ')));
  if (!rest.empty() && rest.front() == '\'') {
    // A FITS string: '' inside stands for one quote; trailing blanks are not significant.
    std::string value;
    for (std::size_t i = 1; i < rest.size(); ++i) {
      if (rest[i] == '\'') {
        if (i + 1 < rest.size() && rest[i + 1] == '\'') {
          value += '\'';
          ++i;
          continue;
        }
        break;
      }
      value += rest[i];
    }
    return std::string(trim(value));
  }
  return std::string(trim(rest.substr(0, rest.find('/'))));
}

}  // namespace

std::vector<std::string_view> header_cards(std::string_view header) {
  std::vector<std::string_view> cards;
  for (std::size_t offset = 0; offset < header.size(); offset += fits_card_length)
    cards.push_back(header.substr(offset, fits_card_length));
  return cards;
}

std::string_view card_keyword(std::string_view card) {
  const std::string_view keyword = card.substr(0, std::min<std::size_t>(8, card.size()));
  const auto last = keyword.find_last_not_of(' ');
  return last == std::string_view::npos ? std::string_view{} : keyword.substr(0, last + 1);
}

std::optional<std::string> header_value(std::string_view header, std::string_view keyword) {
  for (const std::string_view card : header_cards(header)) {
    if (card_keyword(card) != keyword) continue;
    if (card.size() < 10 || card.substr(8, 2) != "= ") return std::nullopt;  // a commentary card
    return parse_value(card);
  }
  return std::nullopt;
}

std::optional<double> header_number(std::string_view header, std::string_view keyword) {
  auto text = header_value(header, keyword);
  if (!text) return std::nullopt;
  // FITS allows a Fortran 'D' exponent (1.5D-3).
  std::replace(text->begin(), text->end(), 'D', 'E');
  double value = 0;
  const char* begin = text->data();
  if (!text->empty() && text->front() == '+') ++begin;
  const auto [end, code] = std::from_chars(begin, text->data() + text->size(), value);
  if (code != std::errc{} || end != text->data() + text->size()) return std::nullopt;
  return value;
}

bool is_output_owned_keyword(std::string_view keyword) {
  static constexpr std::array<std::string_view, 20> exact = {
      "SIMPLE", "XTENSION", "BITPIX", "NAXIS",  "EXTEND", "PCOUNT", "GCOUNT", "GROUPS", "BSCALE", "BZERO",
      "BLANK",  "END",      "BUNIT",  "BMAJ",   "BMIN",   "BPA",    "DATAMIN", "DATAMAX", "CHECKSUM", "DATASUM"};
  if (std::find(exact.begin(), exact.end(), keyword) != exact.end()) return true;
  // NAXIS1..NAXIS999: the outputs state their own axis lengths.
  if (keyword.size() > 5 && keyword.substr(0, 5) == "NAXIS")
    return std::all_of(keyword.begin() + 5, keyword.end(), [](char c) { return c >= '0' && c <= '9'; });
  return false;
}

}  // namespace bkt::clean
