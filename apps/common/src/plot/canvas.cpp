#include "bkt_apps/plot/canvas.hpp"

#include <cairo-pdf.h>
#include <cairo-svg.h>

#include <algorithm>
#include <cctype>
#include <utility>

#include "bkt_apps/app_error.hpp"

namespace bkt::apps::plot {

std::optional<file_format> file_format_of(std::string_view path) {
  const auto dot = path.find_last_of('.');
  if (dot == std::string_view::npos || path.find('/', dot) != std::string_view::npos) return std::nullopt;
  std::string extension(path.substr(dot + 1));
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (extension == "png") return file_format::png;
  if (extension == "svg") return file_format::svg;
  if (extension == "pdf") return file_format::pdf;
  return std::nullopt;
}

cairo_status_t canvas::write_bytes(void* closure, const unsigned char* data, unsigned int length) {
  auto* self = static_cast<canvas*>(closure);
  if (!self->sink_ || self->sink_error_) return self->sink_error_ ? CAIRO_STATUS_WRITE_ERROR : CAIRO_STATUS_SUCCESS;
  // An exception must not unwind through cairo's C frames: keep it and rethrow it after the call.
  try {
    self->sink_(std::string_view(reinterpret_cast<const char*>(data), length));
    return CAIRO_STATUS_SUCCESS;
  } catch (...) {
    self->sink_error_ = std::current_exception();
    return CAIRO_STATUS_WRITE_ERROR;
  }
}

canvas::canvas(file_format format, int width, int height, byte_sink sink, std::string name, const std::string& title)
    : format_(format), width_(width), height_(height), sink_(std::move(sink)), name_(std::move(name)) {
  switch (format) {
    case file_format::png:
      surface_.reset(cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height));
      break;
    case file_format::svg:
      surface_.reset(cairo_svg_surface_create_for_stream(write_bytes, this, width, height));
      break;
    case file_format::pdf:
      surface_.reset(cairo_pdf_surface_create_for_stream(write_bytes, this, width, height));
      cairo_pdf_surface_set_metadata(surface_.get(), CAIRO_PDF_METADATA_CREATOR, "Bucketeer");
      if (!title.empty()) cairo_pdf_surface_set_metadata(surface_.get(), CAIRO_PDF_METADATA_TITLE, title.c_str());
      break;
  }
  check(cairo_surface_status(surface_.get()));
  context_.reset(cairo_create(surface_.get()));
  cairo_t* context = context_.get();
  cairo_set_source_rgb(context, 1, 1, 1);
  cairo_paint(context);
  // Metrics without hinting: text measures the same in every format, so the layout does too.
  cairo_font_options_t* options = cairo_font_options_create();
  cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY);
  cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
  cairo_set_font_options(context, options);
  cairo_font_options_destroy(options);
  cairo_select_font_face(context, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  check(cairo_status(context));
}

canvas::~canvas() {
  // Abandoned unfinished (an exception on the way): an SVG or PDF surface would still write its
  // bytes as it is destroyed; nobody wants them.
  if (!finished_) sink_ = nullptr;
}

void canvas::check(cairo_status_t status) const {
  if (sink_error_) std::rethrow_exception(sink_error_);
  if (status != CAIRO_STATUS_SUCCESS)
    throw app_error(name_ + ": cannot draw the plot: " + cairo_status_to_string(status));
}

void canvas::finish() {
  if (finished_) return;
  check(cairo_status(context_.get()));
  if (format_ == file_format::png) {
    cairo_surface_flush(surface_.get());
    check(cairo_surface_write_to_png_stream(surface_.get(), write_bytes, this));
  } else {
    cairo_surface_finish(surface_.get());  // writes the page and the document's trailer
    check(cairo_surface_status(surface_.get()));
  }
  finished_ = true;
}

}  // namespace bkt::apps::plot
