// quoted_excerpt: input bytes escaped byte by byte so that a message never carries control codes.
#include "bkt_apps/app_error.hpp"

namespace bkt::apps {

std::string quoted_excerpt(std::string_view text, std::size_t max_chars) {
  static constexpr char hex_digits[] = "0123456789abcdef";
  const std::size_t shown = text.size() > max_chars ? max_chars : text.size();
  std::string quoted = "'";
  for (std::size_t i = 0; i < shown; ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    switch (byte) {
      case '\n': quoted += "\\n"; break;
      case '\r': quoted += "\\r"; break;
      case '\t': quoted += "\\t"; break;
      case '\'': quoted += "\\'"; break;
      case '\\': quoted += "\\\\"; break;
      default:
        // Bytes from 0x80 up are escaped too: UTF-8 can encode C1 controls (CSI is C2 9B) that
        // some terminals obey, and a cut may land inside a multi-byte character.
        if (byte >= 0x20 && byte < 0x7f) {
          quoted += static_cast<char>(byte);
        } else {
          quoted += "\\x";
          quoted += hex_digits[byte >> 4];
          quoted += hex_digits[byte & 0xf];
        }
    }
  }
  quoted += '\'';
  if (shown < text.size()) quoted += "... (" + std::to_string(text.size()) + " bytes)";
  return quoted;
}

}  // namespace bkt::apps
