#include "clean_inputs.hpp"

#include <algorithm>
#include <cmath>

#include "bkt_apps/app_error.hpp"
#include "bkt_apps/memory_limit.hpp"

namespace bkt::clean {
namespace {

using bkt::apps::app_error;

std::string planes_text(std::int64_t count) { return std::to_string(count) + (count == 1 ? " plane" : " planes"); }

std::string size_text(const fits_image& file) {
  return std::to_string(file.width()) + " x " + std::to_string(file.height());
}

/// The planes the axes describe (axes 3 and 4 flattened), read or not.
std::int64_t planes_of(const fits_image& file) { return pixel_count(file) / (file.width() * file.height()); }

/// One plane serves every image plane; otherwise one per image plane. Works on headers alone.
void check_plane_count(const fits_image& file, const fits_image& dirty, const std::string& role) {
  if (planes_of(file) == 1 || planes_of(file) == planes_of(dirty)) return;
  throw app_error(file.name + ": " + planes_text(planes_of(file)) + ", but " + dirty.name + " has " +
                  planes_text(planes_of(dirty)) + " (" + role + " needs one plane, or one per image plane)");
}

/// The host bytes a run holds at its peak, from the axes alone: every input plane as float; the
/// model, residual and restored image of each plane to deconvolve (kept until the outputs are
/// written); and one plane's work: the PSF divided by its peak, the candidate flags, and the two
/// complex half-spectra of a zero-padded FFT convolution (Clark's major cycles, the restore), the
/// padding half the kernel's extent on each axis. A lower bound: smaller buffers are left out.
double planned_host_bytes(const clean_inputs& inputs, std::int64_t deconvolved_planes) {
  const auto pixels = [](const fits_image& file) { return static_cast<double>(pixel_count(file)); };
  const double plane = static_cast<double>(inputs.dirty.width()) * static_cast<double>(inputs.dirty.height());
  // --psf-beam: no file yet; the PSF made from the header has the image's size.
  const bool psf_file = !inputs.psf.axis_lengths.empty();
  const double psf_width = static_cast<double>(psf_file ? inputs.psf.width() : inputs.dirty.width());
  const double psf_height = static_cast<double>(psf_file ? inputs.psf.height() : inputs.dirty.height());
  const double psf_plane = psf_width * psf_height;
  const double input_pixels = pixels(inputs.dirty) + (psf_file ? pixels(inputs.psf) : psf_plane) +
                              (inputs.mask ? pixels(*inputs.mask) : 0);
  const double padded = (static_cast<double>(inputs.dirty.width()) + psf_width / 2) *
                        (static_cast<double>(inputs.dirty.height()) + psf_height / 2);
  const double work = 4 * psf_plane + plane + 8 * padded;
  return 4 * input_pixels + 3 * 4 * plane * static_cast<double>(deconvolved_planes) + work;
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

clean_inputs read_clean_headers(const std::string& dirty_path, const std::string& psf_path,
                                const std::string& mask_path, std::optional<std::int64_t> plane) {
  clean_inputs inputs{read_fits_header(dirty_path), {}, std::nullopt, {}};
  const std::int64_t num_planes = planes_of(inputs.dirty);
  if (!psf_path.empty()) {
    inputs.psf = read_fits_header(psf_path);
    check_plane_count(inputs.psf, inputs.dirty, "a PSF");
  }
  if (!mask_path.empty()) {
    inputs.mask = read_fits_header(mask_path);
    if (inputs.mask->width() != inputs.dirty.width() || inputs.mask->height() != inputs.dirty.height())
      throw app_error(mask_path + ": " + size_text(*inputs.mask) + " pixels, but " + dirty_path + " is " +
                      size_text(inputs.dirty) + " (a mask has the image's size)");
    check_plane_count(*inputs.mask, inputs.dirty, "a mask");
  }
  if (plane) {
    if (*plane >= num_planes)
      throw bkt::apps::usage_error("--plane " + std::to_string(*plane) + ": " + dirty_path + " has " +
                                   planes_text(num_planes) + " (0 to " + std::to_string(num_planes - 1) + ")");
    inputs.planes = {*plane};
  } else {
    for (std::int64_t p = 0; p < num_planes; ++p) inputs.planes.push_back(p);
  }
  return inputs;
}

void read_clean_pixels(clean_inputs& inputs) {
  inputs.dirty = read_fits_image(inputs.dirty.name);
  if (!inputs.psf.name.empty()) inputs.psf = read_fits_image(inputs.psf.name);
  if (inputs.mask) inputs.mask = read_fits_image(inputs.mask->name);
  if (std::all_of(inputs.planes.begin(), inputs.planes.end(),
                  [&](std::int64_t p) { return all_nan(inputs.dirty.planes[static_cast<std::size_t>(p)]); }))
    throw app_error(inputs.dirty.name + ": all pixels are NaN (blank)" +
                    std::string(inputs.planes.size() > 1 ? " in every plane" : ""));
}

clean_inputs load_clean_inputs(const std::string& dirty_path, const std::string& psf_path, const std::string& mask_path,
                               std::optional<std::int64_t> plane, std::int64_t host_budget) {
  // Headers first: every check that concerns more than one file, and the memory plan, before a
  // pixel is read.
  clean_inputs inputs = read_clean_headers(dirty_path, psf_path, mask_path, plane);
  const auto planned = static_cast<std::int64_t>(
      std::min(planned_host_bytes(inputs, static_cast<std::int64_t>(inputs.planes.size())), 9e18));
  bkt::apps::require_host_memory(host_budget, planned, dirty_path,
                                 "deconvolving " + planes_text(static_cast<std::int64_t>(inputs.planes.size())) +
                                     " of " + size_text(inputs.dirty) + " pixels");
  read_clean_pixels(inputs);
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
