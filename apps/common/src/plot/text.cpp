#include "bkt_apps/plot/text.hpp"

#include <string>

namespace bkt::apps::plot {
namespace {

void use_style(cairo_t* context, const text_style& style) {
  cairo_select_font_face(context, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
                         style.bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(context, style.size);
}

double offset(align where, double extent) {
  switch (where) {
    case align::start: return 0;
    case align::centre: return -extent / 2;
    case align::end: return -extent;
  }
  return 0;
}

}  // namespace

text_size measure_text(const canvas& page, std::string_view text, const text_style& style) {
  cairo_t* context = page.cairo();
  cairo_save(context);
  use_style(context, style);
  const std::string terminated(text);  // cairo takes NUL-terminated UTF-8
  cairo_text_extents_t extents;
  cairo_text_extents(context, terminated.c_str(), &extents);
  cairo_font_extents_t font;
  cairo_font_extents(context, &font);
  cairo_restore(context);
  return {extents.x_advance, font.ascent + font.descent};
}

rectangle draw_text(canvas& page, std::string_view text, double x, double y, const text_style& style, align horizontal,
                    align vertical, double angle) {
  cairo_t* context = page.cairo();
  const text_size size = measure_text(page, text, style);
  cairo_save(context);
  use_style(context, style);
  cairo_font_extents_t font;
  cairo_font_extents(context, &font);
  cairo_translate(context, x, y);
  cairo_rotate(context, angle);
  const double left = offset(horizontal, size.width), top = offset(vertical, size.height);
  cairo_move_to(context, left, top + font.ascent);  // cairo places text by its baseline
  set_colour(context, style.ink);
  const std::string terminated(text);
  cairo_show_text(context, terminated.c_str());
  cairo_restore(context);
  return {x + left, y + top, size.width, size.height};
}

}  // namespace bkt::apps::plot
