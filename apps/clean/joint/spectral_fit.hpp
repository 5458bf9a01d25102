// --fit-spectral-pol N, as WSClean fits it: the flux a component takes in each channel is replaced
// by a polynomial of N terms in x = frequency / reference - 1, fitted by weighted least squares
// (the channels' weights), the reference being the weighted mean frequency. Written once for the
// CPU loop and the GPU kernel (plain arithmetic, double precision, no allocation).
#pragma once

#include <cmath>
#include <cstdint>

#include "bkt/config.hpp"

namespace bkt::clean {

/// Most terms and channels a fit takes (the normal equations live on the stack).
inline constexpr int max_spectral_terms = 8;

/// The channels' abscissae and weights, computed once per run.
struct spectral_fit_setup {
  int terms = 0;       // 0: no fit
  int channels = 0;
  const double* x = nullptr;       // frequency / reference - 1, per channel
  const double* weights = nullptr; // per channel, > 0
};

/// The polynomial's value at x (terms[0] + terms[1] x + ...).
BKT_HOST_DEVICE inline double evaluate_polynomial(const double* terms, int count, double x) {
  double value = 0;
  for (int k = count - 1; k >= 0; --k) value = value * x + terms[k];
  return value;
}

/// Fits `values` (one per channel) and writes the fitted polynomial's terms (setup.terms of them,
/// fewer when there are fewer channels; the rest 0). Solves the normal equations by Gaussian
/// elimination with partial pivoting; a singular system keeps the weighted mean as the only term.
BKT_HOST_DEVICE inline void fit_spectral_terms(const spectral_fit_setup& setup, const float* values, double* terms) {
  const int n = setup.terms < setup.channels ? setup.terms : setup.channels;
  double a[max_spectral_terms][max_spectral_terms + 1];
  for (int k = 0; k < setup.terms; ++k) terms[k] = 0;
  for (int r = 0; r < n; ++r)
    for (int c = 0; c <= n; ++c) a[r][c] = 0;
  for (int ch = 0; ch < setup.channels; ++ch) {
    double power_r = 1;
    for (int r = 0; r < n; ++r) {
      double power_c = power_r;
      for (int c = 0; c < n; ++c) {
        a[r][c] += setup.weights[ch] * power_c;
        power_c *= setup.x[ch];
      }
      a[r][n] += setup.weights[ch] * power_r * values[ch];
      power_r *= setup.x[ch];
    }
  }
  for (int col = 0; col < n; ++col) {
    int pivot = col;
    for (int r = col + 1; r < n; ++r)
      if (fabs(a[r][col]) > fabs(a[pivot][col])) pivot = r;
    if (!(fabs(a[pivot][col]) > 1e-300)) {
      terms[0] = a[0][n] / a[0][0];  // the weighted mean
      for (int k = 1; k < setup.terms; ++k) terms[k] = 0;
      return;
    }
    for (int c = 0; c <= n; ++c) {
      const double swap = a[col][c];
      a[col][c] = a[pivot][c];
      a[pivot][c] = swap;
    }
    for (int r = col + 1; r < n; ++r) {
      const double factor = a[r][col] / a[col][col];
      for (int c = col; c <= n; ++c) a[r][c] -= factor * a[col][c];
    }
  }
  for (int r = n - 1; r >= 0; --r) {
    double sum = a[r][n];
    for (int c = r + 1; c < n; ++c) sum -= a[r][c] * terms[c];
    terms[r] = sum / a[r][r];
  }
}

/// Replaces each channel's value by the fitted polynomial at its frequency (no-op without a fit).
BKT_HOST_DEVICE inline void fit_and_evaluate(const spectral_fit_setup& setup, float* values) {
  if (setup.terms <= 0 || setup.channels < 2) return;
  double terms[max_spectral_terms];
  fit_spectral_terms(setup, values, terms);
  const int n = setup.terms < setup.channels ? setup.terms : setup.channels;
  for (int ch = 0; ch < setup.channels; ++ch) values[ch] = static_cast<float>(evaluate_polynomial(terms, n, setup.x[ch]));
}

}  // namespace bkt::clean
