#include "plane_geometry.hpp"

#include <limits>

#include "bkt/error.hpp"

namespace bkt::clean::gpu {

plane_geometry make_geometry(const image& dirty, const image& psf, const clean_params& params) {
  BKT_EXPECTS(dirty.width >= 0 && dirty.height >= 0, "clean_gpu: negative image size");
  BKT_EXPECTS(static_cast<std::int64_t>(dirty.pixels.size()) == dirty.size(), "clean_gpu: dirty pixels != width * height");
  BKT_EXPECTS(static_cast<std::int64_t>(psf.pixels.size()) == psf.size(), "clean_gpu: psf pixels != width * height");
  const bool same = psf.width == dirty.width && psf.height == dirty.height;
  const bool twice = psf.width == 2 * dirty.width && psf.height == 2 * dirty.height;
  BKT_EXPECTS(same || twice, "clean_gpu: the PSF must be the image's size or twice it along both axes");
  BKT_EXPECTS(dirty.size() <= max_image_pixels, "clean_gpu: image larger than 2^30 pixels");
  BKT_EXPECTS(psf.size() <= std::numeric_limits<std::int32_t>::max(), "clean_gpu: PSF larger than 2^31 - 1 pixels");
  BKT_EXPECTS(params.mask.empty() || static_cast<std::int64_t>(params.mask.size()) == dirty.size(),
              "clean_gpu: the mask must be empty or hold one entry per pixel");
  // The same limits as the CPU path; the loops' termination relies on them.
  BKT_EXPECTS(params.niter >= 0, "clean_gpu: niter must not be negative");
  BKT_EXPECTS(params.gain > 0 && params.gain <= 1, "clean_gpu: gain must be in (0, 1]");
  BKT_EXPECTS(params.mgain > 0 && params.mgain <= 1, "clean_gpu: mgain must be in (0, 1]");
  BKT_EXPECTS(params.threshold >= 0, "clean_gpu: threshold must not be negative");
  return geometry_of(dirty, psf);
}

plane_geometry geometry_of(const image& dirty, const image& psf) {
  plane_geometry g;
  g.width = static_cast<std::int32_t>(dirty.width);
  g.height = static_cast<std::int32_t>(dirty.height);
  g.psf_width = static_cast<std::int32_t>(psf.width);
  g.psf_height = static_cast<std::int32_t>(psf.height);
  g.psf_centre_x = static_cast<std::int32_t>(psf_centre(psf.width));
  g.psf_centre_y = static_cast<std::int32_t>(psf_centre(psf.height));
  return g;
}

}  // namespace bkt::clean::gpu
