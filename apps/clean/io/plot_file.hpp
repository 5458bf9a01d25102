// The --plot file: the quick-look canvas as PNG, or as SVG that embeds that PNG (base64), which
// keeps the SVG small and exact where thousands of rectangles would not.
#pragma once

#include <optional>
#include <string>

#include "rgb_canvas.hpp"

namespace bkt::clean {

enum class plot_format { png, svg };

/// The format the path's extension names (.png or .svg, any case); nullopt otherwise.
std::optional<plot_format> plot_format_of(const std::string& path);

/// The file's bytes.
std::string encode_plot(const rgb_canvas& canvas, plot_format format);

/// RFC 4648 base64 with padding.
std::string base64(const std::string& bytes);

}  // namespace bkt::clean
