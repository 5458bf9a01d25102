#include "clean_inputs.hpp"

#include <algorithm>
#include <cmath>

#include "bkt_apps/app_error.hpp"

namespace bkt::clean {
namespace {

using bkt::apps::app_error;

std::string planes_text(std::int64_t count) { return std::to_string(count) + (count == 1 ? " plane" : " planes"); }

std::string size_text(const fits_image& file) {
  return std::to_string(file.width()) + " x " + std::to_string(file.height());
}

/// One plane serves every image plane; otherwise one per image plane.
void check_plane_count(const fits_image& file, const fits_image& dirty, const std::string& role) {
  if (file.num_planes() == 1 || file.num_planes() == dirty.num_planes()) return;
  throw app_error(file.name + ": " + planes_text(file.num_planes()) + ", but " + dirty.name + " has " +
                  planes_text(dirty.num_planes()) + " (" + role + " needs one plane, or one per image plane)");
}

}  // namespace

const image& clean_inputs::psf_plane(std::int64_t plane) const {
  return psf.planes[psf.num_planes() == 1 ? 0 : static_cast<std::size_t>(plane)];
}

const image* clean_inputs::mask_plane(std::int64_t plane) const {
  if (!mask) return nullptr;
  return &mask->planes[mask->num_planes() == 1 ? 0 : static_cast<std::size_t>(plane)];
}

bool all_nan(const image& picture) {
  return std::all_of(picture.pixels.begin(), picture.pixels.end(), [](float value) { return std::isnan(value); });
}

clean_inputs load_clean_inputs(const std::string& dirty_path, const std::string& psf_path, const std::string& mask_path,
                               std::optional<std::int64_t> plane) {
  clean_inputs inputs{read_fits_image(dirty_path), {}, std::nullopt, {}};
  if (!psf_path.empty()) {
    inputs.psf = read_fits_image(psf_path);
    check_plane_count(inputs.psf, inputs.dirty, "a PSF");
  }
  if (!mask_path.empty()) {
    inputs.mask = read_fits_image(mask_path);
    if (inputs.mask->width() != inputs.dirty.width() || inputs.mask->height() != inputs.dirty.height())
      throw app_error(mask_path + ": " + size_text(*inputs.mask) + " pixels, but " + dirty_path + " is " +
                      size_text(inputs.dirty) + " (a mask has the image's size)");
    check_plane_count(*inputs.mask, inputs.dirty, "a mask");
  }
  const std::int64_t num_planes = inputs.dirty.num_planes();
  if (plane) {
    if (*plane >= num_planes)
      throw bkt::apps::usage_error("--plane " + std::to_string(*plane) + ": " + dirty_path + " has " +
                                   planes_text(num_planes) + " (0 to " + std::to_string(num_planes - 1) + ")");
    inputs.planes = {*plane};
  } else {
    for (std::int64_t p = 0; p < num_planes; ++p) inputs.planes.push_back(p);
  }
  if (std::all_of(inputs.planes.begin(), inputs.planes.end(),
                  [&](std::int64_t p) { return all_nan(inputs.dirty.planes[static_cast<std::size_t>(p)]); }))
    throw app_error(dirty_path + ": all pixels are NaN (blank)" +
                    std::string(inputs.planes.size() > 1 ? " in every plane" : ""));
  return inputs;
}

std::vector<std::uint8_t> candidate_mask(const image* mask, const std::optional<pixel_box>& box, std::int64_t width,
                                         std::int64_t height) {
  if (mask == nullptr && !box) return {};
  if (box && (box->x1 >= width || box->y1 >= height))
    throw bkt::apps::usage_error("--mask-box " + std::to_string(box->x0) + "," + std::to_string(box->y0) + "," +
                                 std::to_string(box->x1) + "," + std::to_string(box->y1) + " reaches outside the " +
                                 std::to_string(width) + " x " + std::to_string(height) + " image (0-based pixels)");
  std::vector<std::uint8_t> allowed(static_cast<std::size_t>(width * height), 1);
  for (std::int64_t y = 0; y < height; ++y)
    for (std::int64_t x = 0; x < width; ++x) {
      bool keep = true;
      if (mask != nullptr) {
        const float value = mask->at(x, y);
        keep = value != 0 && !std::isnan(value);
      }
      if (box) keep = keep && x >= box->x0 && x <= box->x1 && y >= box->y0 && y <= box->y1;
      allowed[static_cast<std::size_t>(y * width + x)] = keep ? 1 : 0;
    }
  return allowed;
}

}  // namespace bkt::clean
