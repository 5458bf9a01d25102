#include "plot_file.hpp"

#include <algorithm>
#include <cctype>

#include "png_encoder.hpp"

namespace bkt::clean {

std::optional<plot_format> plot_format_of(const std::string& path) {
  const auto dot = path.find_last_of('.');
  if (dot == std::string::npos || path.find('/', dot) != std::string::npos) return std::nullopt;
  std::string extension = path.substr(dot + 1);
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (extension == "png") return plot_format::png;
  if (extension == "svg") return plot_format::svg;
  return std::nullopt;
}

std::string base64(const std::string& bytes) {
  static constexpr char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string text;
  text.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::size_t count = std::min<std::size_t>(3, bytes.size() - i);
    std::uint32_t group = 0;
    for (std::size_t k = 0; k < 3; ++k)
      group = group << 8 | (k < count ? static_cast<unsigned char>(bytes[i + k]) : 0u);
    for (std::size_t k = 0; k < 4; ++k) text += k <= count ? digits[(group >> (18 - 6 * k)) & 63] : '=';
  }
  return text;
}

std::string encode_plot(const rgb_canvas& canvas, plot_format format) {
  const std::string png = encode_png(canvas);
  if (format == plot_format::png) return png;
  const std::string width = std::to_string(canvas.width), height = std::to_string(canvas.height);
  // xlink:href rather than SVG 2's plain href: every viewer, old or new, reads it.
  const std::string source = "data:image/png;base64," + base64(png);
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"" + width +
         "\" height=\"" + height + "\" viewBox=\"0 0 " + width + " " + height +
         "\">\n<title>bkt-clean: restored and residual</title>\n<image width=\"" + width + "\" height=\"" + height +
         "\" style=\"image-rendering:pixelated\" xlink:href=\"" + source + "\"/>\n</svg>\n";
}

}  // namespace bkt::clean
