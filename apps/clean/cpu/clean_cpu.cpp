// clean_cpu (deconvolve.hpp): checks the inputs once, then runs Högbom's or Clark's loop.
#include <string>

#include "bkt_apps/app_error.hpp"
#include "cpu/clean_cpu_steps.hpp"
#include "deconvolve.hpp"

namespace bkt::clean {
namespace {

void check_inputs(const image& dirty, const image& psf, const clean_params& params) {
  const auto size_name = [](const image& plane) {
    return std::to_string(plane.width) + " x " + std::to_string(plane.height);
  };
  if (dirty.width < 0 || dirty.height < 0 || static_cast<std::int64_t>(dirty.pixels.size()) != dirty.size())
    throw apps::app_error("dirty image: " + std::to_string(dirty.pixels.size()) + " pixels for " + size_name(dirty));
  if (static_cast<std::int64_t>(psf.pixels.size()) != psf.size())
    throw apps::app_error("PSF: " + std::to_string(psf.pixels.size()) + " pixels for " + size_name(psf));
  const bool same_size = psf.width == dirty.width && psf.height == dirty.height;
  const bool twice_size = psf.width == 2 * dirty.width && psf.height == 2 * dirty.height;
  if (!same_size && !twice_size)
    throw apps::app_error("PSF: " + size_name(psf) + " pixels for a dirty image of " + size_name(dirty) +
                          "; it must be the same size or twice it");
  // The loops' termination relies on these (clark_cpu.cpp).
  if (params.niter < 0)
    throw apps::usage_error("niter must not be negative (got " + std::to_string(params.niter) + ")");
  if (!(params.gain > 0 && params.gain <= 1))
    throw apps::usage_error("gain must be in (0, 1] (got " + std::to_string(params.gain) + ")");
  if (!(params.mgain > 0 && params.mgain <= 1))
    throw apps::usage_error("mgain must be in (0, 1] (got " + std::to_string(params.mgain) + ")");
  if (!(params.threshold >= 0))
    throw apps::usage_error("threshold must not be negative (got " + std::to_string(params.threshold) + ")");
}

}  // namespace

clean_result clean_cpu(const image& dirty, const image& psf, const clean_params& params) {
  check_inputs(dirty, psf, params);
  return params.method == algorithm::clark ? cpu::clark_cpu(dirty, psf, params) : cpu::hogbom_cpu(dirty, psf, params);
}

}  // namespace bkt::clean
