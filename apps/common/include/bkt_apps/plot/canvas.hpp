// A drawing through cairo for the tools' --plot files: one code path for PNG, SVG and PDF, chosen
// by the output file's extension. The canvas owns the cairo surface and context (RAII); the
// file's bytes go to a sink (the tools hand it their output_file, i.e. the temporary that the
// output_set renames at the end), PNG's at finish(), SVG's and PDF's as cairo makes them.
// One canvas unit is one pixel of a PNG and one point (1/72 inch) of an SVG or PDF page.
#pragma once

#include <cairo.h>

#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace bkt::apps::plot {

enum class file_format { png, svg, pdf };

/// The format that `path`'s extension names (.png, .svg or .pdf, any case); nullopt otherwise.
std::optional<file_format> file_format_of(std::string_view path);

/// For messages: the extensions file_format_of() knows.
inline constexpr const char* file_extensions = ".png, .svg or .pdf";

/// Receives the file's bytes in order. It may throw: the exception comes out of the canvas call
/// that was writing (the constructor, a drawing call's finish()).
using byte_sink = std::function<void(std::string_view bytes)>;

struct colour {
  double red = 0, green = 0, blue = 0;  // each in [0, 1]
};

/// An axis-aligned box in canvas units, y growing downwards.
struct rectangle {
  double left = 0, top = 0, width = 0, height = 0;
  double right() const { return left + width; }
  double bottom() const { return top + height; }
};

class canvas {
 public:
  /// A white page of width x height units. `name` (the output's path) prefixes error messages;
  /// `title` goes into a PDF's metadata. Throws bkt::apps::app_error "NAME: cannot draw the plot:
  /// REASON" when cairo cannot make the surface.
  canvas(file_format format, int width, int height, byte_sink sink, std::string name, const std::string& title = "");
  canvas(const canvas&) = delete;
  canvas& operator=(const canvas&) = delete;
  ~canvas();

  /// The context to draw with; its font is the default sans-serif face (fontconfig).
  cairo_t* cairo() const noexcept { return context_.get(); }
  int width() const noexcept { return width_; }
  int height() const noexcept { return height_; }
  file_format format() const noexcept { return format_; }

  /// Completes the file and sends its last bytes to the sink. Throws app_error "NAME: cannot draw
  /// the plot: REASON" for any cairo failure on the way, or what the sink threw.
  void finish();

 private:
  struct surface_deleter {
    void operator()(cairo_surface_t* surface) const noexcept { cairo_surface_destroy(surface); }
  };
  struct context_deleter {
    void operator()(cairo_t* context) const noexcept { cairo_destroy(context); }
  };
  static cairo_status_t write_bytes(void* closure, const unsigned char* data, unsigned int length);
  void check(cairo_status_t status) const;

  file_format format_;
  int width_ = 0, height_ = 0;
  // cairo keeps `this` for its stream callback (the canvas never moves), and an SVG or PDF
  // surface writes its last bytes when destroyed: the sink, declared first, is destroyed last.
  byte_sink sink_;
  std::exception_ptr sink_error_;
  std::string name_;
  std::unique_ptr<cairo_surface_t, surface_deleter> surface_;
  std::unique_ptr<cairo_t, context_deleter> context_;
  bool finished_ = false;
};

/// Sets the source colour of `context`.
inline void set_colour(cairo_t* context, const colour& ink) { cairo_set_source_rgb(context, ink.red, ink.green, ink.blue); }

}  // namespace bkt::apps::plot
