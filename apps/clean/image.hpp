// The image types every part of bkt-clean shares: one plane of pixels, the deconvolution's
// parameters, and what a run returns.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bkt::clean {

/// One image plane, row-major: pixel (x, y) is pixels[y * width + x], x along the FITS NAXIS1
/// axis. Blanked pixels are NaN.
struct image {
  std::int64_t width = 0;
  std::int64_t height = 0;
  std::vector<float> pixels;

  std::int64_t size() const { return width * height; }
  float& at(std::int64_t x, std::int64_t y) { return pixels[y * width + x]; }
  float at(std::int64_t x, std::int64_t y) const { return pixels[y * width + x]; }
};

/// A clean component: flux (image units) added to the model at pixel (x, y).
struct component {
  std::int64_t x = 0;
  std::int64_t y = 0;
  double flux = 0;
};

/// Högbom and Clark deconvolve one plane (deconvolve.hpp); multiscale, and every method with
/// --join-channels, run through the joint engine (joint/joint_clean.hpp).
enum class algorithm { hogbom, clark, multiscale };

/// Why a run stopped.
enum class stop_reason { niter, threshold, diverged, no_pixels, nmiter /* the joint engine's --nmiter */ };

struct clean_params {
  algorithm method = algorithm::hogbom;
  std::int64_t niter = 1000;  // components at most (minor iterations, summed over major cycles)
  double gain = 0.1;          // loop gain: fraction of the peak removed per component
  double mgain = 0.8;         // Clark: a major cycle ends once the peak fell by this fraction
  double threshold = 0;       // stop once the peak |residual| is at or below this (image units)
  /// Pixels that may take components (1) or not (0); empty: every pixel that is not NaN.
  std::vector<std::uint8_t> mask;
};

struct clean_result {
  image model;     // the components summed per pixel
  image residual;  // dirty - model convolved with the PSF
  std::vector<component> components;  // in the order they were found (Högbom: one per iteration)
  std::int64_t iterations = 0;
  std::int64_t major_cycles = 0;      // Clark; Högbom counts 0
  stop_reason reason = stop_reason::niter;
  double peak_residual = 0;           // the largest |residual| over the mask at the end
};

/// The PSF's centre pixel for a PSF of the given size: (width / 2, height / 2), where WSClean and
/// CASA put the peak. A PSF is the image's size or twice it along both axes.
inline std::int64_t psf_centre(std::int64_t extent) { return extent / 2; }

}  // namespace bkt::clean
