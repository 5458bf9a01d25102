// bkt-clean's inputs, read and checked against each other: the dirty image, the PSF, an optional
// mask, and which planes of a cube to deconvolve.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fits_image.hpp"

namespace bkt::clean {

/// A rectangle of pixels, 0-based, corners included (--mask-box X0,Y0,X1,Y1).
struct pixel_box {
  std::int64_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

struct clean_inputs {
  fits_image dirty;
  fits_image psf;
  std::optional<fits_image> mask;
  std::vector<std::int64_t> planes;  // the dirty planes to deconvolve, ascending

  /// The PSF for dirty plane `plane`: its own, or the only one a single-plane PSF has.
  const image& psf_plane(std::int64_t plane) const;
  /// The mask for dirty plane `plane`, or nullptr without --mask.
  const image* mask_plane(std::int64_t plane) const;
  /// Whether only some planes of a cube are deconvolved (outputs then hold only those).
  bool is_subset() const { return static_cast<std::int64_t>(planes.size()) != dirty.num_planes(); }
};

/// Reads the files and checks what concerns more than one file: PSF and mask plane counts (one,
/// or the image's), the mask's size, --plane within the cube (a usage error), and that the
/// selected planes hold a pixel that is not NaN. Before any pixel is read it plans the run's host
/// memory from the headers (inputs, three result images per plane, one plane's FFT work) and
/// refuses a run that needs more than `host_budget` bytes (bkt::apps::host_memory_budget). An
/// empty psf_path leaves `psf` empty, for the caller to fill (--psf-beam). The PSF's size and
/// peak are prepare_psf's to check. Errors name the file: bkt::apps::app_error "PATH: problem".
clean_inputs load_clean_inputs(const std::string& dirty_path, const std::string& psf_path, const std::string& mask_path,
                               std::optional<std::int64_t> plane, std::int64_t host_budget);

/// load_clean_inputs in two halves, for a run that plans its memory otherwise (the joint engine):
/// the headers and every check between them, no pixel read (planes left empty) ...
clean_inputs read_clean_headers(const std::string& dirty_path, const std::string& psf_path,
                                const std::string& mask_path, std::optional<std::int64_t> plane);
/// ... then the pixels of each file read there, refusing a selection of planes that are all NaN.
void read_clean_pixels(clean_inputs& inputs);

/// clean_params::mask for one plane: 1 where the mask image is nonzero (and not NaN) and inside
/// `box`, 0 elsewhere; empty (every pixel) when there is neither. A box reaching outside the image
/// is a usage error.
std::vector<std::uint8_t> candidate_mask(const image* mask, const std::optional<pixel_box>& box, std::int64_t width,
                                         std::int64_t height);

/// Whether every pixel is NaN.
bool all_nan(const image& picture);

}  // namespace bkt::clean
