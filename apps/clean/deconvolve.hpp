// The deconvolution steps of bkt-clean, shared by the CPU path (cpu/) and the GPU path (gpu/).
//
// Högbom, exactly as both paths do it (so that their component lists agree: positions identical,
// fluxes bit for bit):
//  - candidates are the pixels whose dirty value is not NaN and whose mask entry (if any) is 1;
//    NaN pixels stay NaN in the residual and are never updated;
//  - each iteration takes the candidate p with the largest |R[p]| (ties: the smallest index
//    y * width + x); it stops, in this order, when there is no candidate (no_pixels), when
//    |R[p]| <= threshold (threshold), when niter components were taken (niter), or when |R[p]|
//    exceeds 1.1 times the peak of the first iteration (diverged);
//  - flux = float(gain) * R[p] in float; model[p] += flux; every non-NaN residual pixel q inside
//    the shifted PSF becomes fmaf(-flux, psf[q - p + centre], R[q]) in float, where centre is
//    (psf_centre(psf.width), psf_centre(psf.height)).
// Clark, with the same cycle rules on both paths (not the same bits: their caps differ, the CPU's
// 100000 candidates and a patch of +-128 pixels, the GPU's 12288 and up to +-96):
//  - each major cycle recomputes R = dirty - model (*) psf by zero-padded FFTs and applies
//    Högbom's stop rules to its peak P; iterations count components over all minor cycles;
//  - its minor cycle runs Högbom's loop, subtracting a patch of the PSF's centre, over the
//    candidates with |R| > max_sidelobe * P (the largest when there are more than the cap). It
//    always takes one component, then stops once the peak there is at or below
//      max(threshold, (1 - mgain) * P, L),
//    L being the largest |R| left out when capped, else max_sidelobe * P;
//  - with s the largest |psf| a component reaches outside the patch, the minor cycle runs in
//    batches tracking E = sum over candidates of (flux added there in the batch)^2. A batch ends
//    once s^2 * E >= (0.3 * peak)^2, the candidates are then corrected with the whole PSF and the
//    next batch starts from exact values; the major cycle ends (the minor cycle stops) once
//    s^2 * (sum of E over its batches) >= (0.5 * peak)^2, peak being the minor cycle's current one.
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "image.hpp"

namespace bkt::clean {

/// Checks the PSF against the dirty image (the same size or twice it along both axes), that its
/// peak is at the centre pixel and positive, and that it holds no NaN; returns it divided by its
/// peak. Throws bkt::apps::app_error "NAME: problem".
image prepare_psf(image psf, const image& dirty, const std::string& name);

/// The largest |psf| outside the main lobe (the region around the centre where the PSF stays
/// positive, grown while it decreases): Clark's minor-cycle cutoff factor.
double max_sidelobe(const image& psf);

/// An elliptical Gaussian beam in pixel units: full widths at half maximum along its major and
/// minor axes and the major axis's angle (radians, counter-clockwise from +x, i.e. +NAXIS1).
struct beam {
  double major_fwhm = 0;
  double minor_fwhm = 0;
  double angle = 0;
};

/// A 2-D elliptical Gaussian fitted to the PSF's main lobe (see cpu/beam_fit.cpp for how). Throws
/// bkt::apps::app_error "NAME: cannot fit a restoring beam: ..." when the lobe is too small.
beam fit_beam(const image& psf, const std::string& name = "the PSF");

/// model convolved with the beam (peak 1) plus residual: the restored image.
image restore(const image& model, const image& residual, const beam& restoring_beam);

/// Noise sigma of the residual over the candidate pixels: 1.4826 * the median absolute deviation.
double mad_sigma(const image& residual, const clean_params& params);

/// The whole deconvolution (Högbom or Clark by params.method) on the CPU; psf prepared.
clean_result clean_cpu(const image& dirty, const image& psf, const clean_params& params);

/// The same on the GPU on `stream`; throws bkt::error on a CUDA failure.
clean_result clean_gpu(const image& dirty, const image& psf, const clean_params& params, cudaStream_t stream);

}  // namespace bkt::clean
