// fit_beam (deconvolve.hpp): the restoring beam is an elliptical Gaussian of peak 1 fitted to the
// PSF's main lobe where it is above 35% of the peak. CASA does the same (tclean's psfcutoff,
// default 0.35): below that the lobe's skirt bends away from a Gaussian and sidelobes leak in.
//
// The Gaussian exp(-(a x^2 + b x y + c y^2)) is linear in (a, b, c) after a logarithm, so a
// weighted linear fit of -ln(psf) gives the answer exactly for a Gaussian PSF and a good start
// otherwise; Levenberg-Marquardt steps then fit the values themselves (least squares on psf).
#include <array>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "bkt_apps/app_error.hpp"
#include "cpu/beam_kernel.hpp"
#include "cpu/main_lobe.hpp"
#include "deconvolve.hpp"

namespace bkt::clean {
namespace {

constexpr double lobe_fraction = 0.35;

struct lobe_sample {
  double x, y, value;  // offset from the centre, PSF value relative to the centre
};

using vector3 = std::array<double, 3>;
using matrix3 = std::array<vector3, 3>;

// Solves m s = rhs by Cramer's rule; false when m is (nearly) singular.
bool solve(const matrix3& m, const vector3& rhs, vector3& solution) {
  const auto det = [](const matrix3& a) {
    return a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
           a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
  };
  const double determinant = det(m);
  double scale = 0;
  for (const vector3& row : m)
    for (const double value : row) scale = std::fmax(scale, std::fabs(value));
  if (!(std::fabs(determinant) > 1e-12 * scale * scale * scale)) return false;
  for (int column = 0; column < 3; ++column) {
    matrix3 replaced = m;
    for (int row = 0; row < 3; ++row) replaced[row][column] = rhs[row];
    solution[column] = det(replaced) / determinant;
  }
  return true;
}

// exp(-(a x^2 + b x y + c y^2)) is a beam only when the quadratic form is positive definite.
bool is_positive_definite(const vector3& form) {
  return form[0] > 0 && form[2] > 0 && 4 * form[0] * form[2] > form[1] * form[1];
}

double gaussian(const vector3& form, const lobe_sample& s) {
  return std::exp(-(form[0] * s.x * s.x + form[1] * s.x * s.y + form[2] * s.y * s.y));
}

double squared_error(const vector3& form, const std::vector<lobe_sample>& samples) {
  double sum = 0;
  for (const lobe_sample& s : samples) sum += (gaussian(form, s) - s.value) * (gaussian(form, s) - s.value);
  return sum;
}

// Weighted least squares of a x^2 + b x y + c y^2 = -ln(value); weight value^2 because the noise
// of ln(value) grows as 1 / value.
bool fit_log(const std::vector<lobe_sample>& samples, vector3& form) {
  matrix3 normal{};
  vector3 rhs{};
  for (const lobe_sample& s : samples) {
    const vector3 basis{s.x * s.x, s.x * s.y, s.y * s.y};
    const double weight = s.value * s.value;
    for (int i = 0; i < 3; ++i) {
      rhs[i] += weight * basis[i] * -std::log(s.value);
      for (int j = 0; j < 3; ++j) normal[i][j] += weight * basis[i] * basis[j];
    }
  }
  return solve(normal, rhs, form) && is_positive_definite(form);
}

// Levenberg-Marquardt on sum (gaussian - value)^2, starting from `form`; keeps it positive definite.
void refine(const std::vector<lobe_sample>& samples, vector3& form) {
  double error = squared_error(form, samples);
  double damping = 1e-3;
  for (int step = 0; step < 100 && damping < 1e12; ++step) {
    matrix3 normal{};
    vector3 gradient{};
    for (const lobe_sample& s : samples) {
      const double g = gaussian(form, s);
      const vector3 jacobian{-s.x * s.x * g, -s.x * s.y * g, -s.y * s.y * g};
      for (int i = 0; i < 3; ++i) {
        gradient[i] += jacobian[i] * (s.value - g);
        for (int j = 0; j < 3; ++j) normal[i][j] += jacobian[i] * jacobian[j];
      }
    }
    for (int i = 0; i < 3; ++i) normal[i][i] *= 1 + damping;
    vector3 delta{};
    vector3 trial = form;
    if (solve(normal, gradient, delta))
      for (int i = 0; i < 3; ++i) trial[i] += delta[i];
    const double trial_error = is_positive_definite(trial) ? squared_error(trial, samples) : INFINITY;
    if (trial_error < error) {
      const bool converged = error - trial_error <= 1e-14 * error;
      form = trial;
      error = trial_error;
      damping *= 0.1;
      if (converged) break;
    } else {
      damping *= 10;
    }
  }
}

// exp(-(a x^2 + b x y + c y^2)) = exp(-(u^2 / (2 sm^2) + v^2 / (2 sn^2))) with u along the major
// axis at `angle`: a - c = k cos 2 angle, b = k sin 2 angle, k = 1/(2 sm^2) - 1/(2 sn^2) <= 0.
beam beam_of_form(const vector3& form) {
  const double mean = (form[0] + form[2]) / 2;
  const double spread = std::hypot((form[0] - form[2]) / 2, form[1] / 2);
  const double sigma_major = 1 / std::sqrt(2 * (mean - spread));
  const double sigma_minor = 1 / std::sqrt(2 * (mean + spread));
  double angle = spread > 0 ? 0.5 * std::atan2(-form[1], form[2] - form[0]) : 0.0;
  if (angle < 0) angle += std::numbers::pi;
  if (angle >= std::numbers::pi) angle -= std::numbers::pi;
  return {sigma_major * cpu::fwhm_per_sigma, sigma_minor * cpu::fwhm_per_sigma, angle};
}

}  // namespace

beam fit_beam(const image& psf, const std::string& name) {
  const std::vector<std::uint8_t> in_lobe = cpu::main_lobe(psf);
  const std::int64_t centre_x = psf_centre(psf.width);
  const std::int64_t centre_y = psf_centre(psf.height);
  std::vector<lobe_sample> samples;
  if (psf.size() > 0) {
    const double peak = psf.at(centre_x, centre_y);
    for (std::int64_t y = 0; y < psf.height; ++y)
      for (std::int64_t x = 0; x < psf.width; ++x) {
        const double value = psf.at(x, y) / peak;
        if (in_lobe[y * psf.width + x] == 1 && value > lobe_fraction && (x != centre_x || y != centre_y))
          samples.push_back({static_cast<double>(x - centre_x), static_cast<double>(y - centre_y), value});
      }
  }
  vector3 form{};
  if (samples.size() < 3 || !fit_log(samples, form))
    throw apps::app_error(name + ": cannot fit a restoring beam: the PSF's main lobe has " +
                          std::to_string(samples.size()) +
                          " pixels besides the centre above 35% of the peak, too few or too narrow for a Gaussian "
                          "(give --beam BMAJ,BMIN,BPA)");
  refine(samples, form);
  return beam_of_form(form);
}

}  // namespace bkt::clean
