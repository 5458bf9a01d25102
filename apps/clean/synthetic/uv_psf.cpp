#include "synthetic/uv_psf.hpp"

#include <cmath>
#include <complex>
#include <mutex>
#include <numbers>
#include <stdexcept>
#include <vector>

#include "cpu/fftw_support.hpp"
#include "synthetic/seeded_random.hpp"

namespace bkt::clean::synthetic {
namespace {

struct baseline {
  double east, north;
};

// Antenna pairs of a Y array with arms at power-law radii (the VLA's 1.716), in arm lengths.
std::vector<baseline> y_array_baselines(int antennas_per_arm, seeded_random& random) {
  const double rotation = random.uniform(0, 2 * std::numbers::pi / 3);
  std::vector<baseline> antennas;
  for (int arm = 0; arm < 3; ++arm)
    for (int k = 1; k <= antennas_per_arm; ++k) {
      const double radius = std::pow(static_cast<double>(k) / antennas_per_arm, 1.716) * random.uniform(0.9, 1.1);
      const double angle = rotation + arm * 2 * std::numbers::pi / 3 + random.uniform(-0.02, 0.02);
      antennas.push_back({radius * std::cos(angle), radius * std::sin(angle)});
    }
  std::vector<baseline> baselines;
  for (std::size_t i = 0; i < antennas.size(); ++i)
    for (std::size_t j = i + 1; j < antennas.size(); ++j)
      baselines.push_back({antennas[j].east - antennas[i].east, antennas[j].north - antennas[i].north});
  return baselines;
}

}  // namespace

image make_uv_psf(const uv_coverage_config& config) {
  if (config.width < 2 || config.height < 2 || config.antennas_per_arm < 1 || config.hour_angle_steps < 1 ||
      !(config.max_uv_fraction > 0 && config.max_uv_fraction < 1))
    throw std::invalid_argument("make_uv_psf: bad coverage config");
  seeded_random random(config.seed);
  const std::vector<baseline> baselines = y_array_baselines(config.antennas_per_arm, random);
  double longest = 0;
  for (const baseline& b : baselines) longest = std::max(longest, std::hypot(b.east, b.north));

  // Half of the spectrum, as FFTW's complex-to-real transform takes it: columns u = 0 .. width/2.
  const std::int64_t width = config.width;
  const std::int64_t height = config.height;
  const std::int64_t spectrum_width = width / 2 + 1;
  std::vector<std::complex<double>> spectrum(static_cast<std::size_t>(height * spectrum_width));
  const double centre_x = static_cast<double>(psf_centre(width));
  const double centre_y = static_cast<double>(psf_centre(height));
  const double u_scale = config.max_uv_fraction * static_cast<double>(width / 2) / longest;
  const double v_scale = config.max_uv_fraction * static_cast<double>(height / 2) / longest;
  // Each sample (u, v) is cos(2 pi (u (x - cx) / W + v (y - cy) / H)): half of it at (u, v) and
  // half at (-u, -v), phased to put the peak at the centre. The transform supplies the conjugate
  // of every column it does not store, so only the stored half is written.
  const auto add = [&](std::int64_t u, std::int64_t v) {
    const std::int64_t column = ((u % width) + width) % width;
    if (column >= spectrum_width) return;
    const std::int64_t row = ((v % height) + height) % height;
    const double phase = -2 * std::numbers::pi * (u * centre_x / width + v * centre_y / height);
    spectrum[row * spectrum_width + column] += 0.5 * std::polar(1.0, phase);
  };
  double samples = 0;
  const double foreshortening = std::sin(config.declination);
  for (int step = 0; step < config.hour_angle_steps; ++step) {
    // Steps spread evenly over the span, centred on transit; one step is a snapshot at transit.
    const double track_fraction =
        config.hour_angle_steps == 1 ? 0.5 : static_cast<double>(step) / (config.hour_angle_steps - 1);
    const double hour_angle = config.hour_angle_span * (track_fraction - 0.5);
    for (const baseline& b : baselines) {
      const double u = b.east * std::cos(hour_angle) - b.north * std::sin(hour_angle);
      const double v = (b.east * std::sin(hour_angle) + b.north * std::cos(hour_angle)) * foreshortening;
      const auto cell_u = static_cast<std::int64_t>(std::lround(u * u_scale));
      const auto cell_v = static_cast<std::int64_t>(std::lround(v * v_scale));
      if (cell_u == 0 && cell_v == 0) continue;  // a constant offset, not a fringe
      add(cell_u, cell_v);
      add(-cell_u, -cell_v);
      samples += 1;
    }
  }
  if (samples == 0) throw std::invalid_argument("make_uv_psf: every baseline fell in the zero cell");

  auto input = cpu::make_fftwf_array<fftwf_complex>(spectrum.size());
  for (std::size_t i = 0; i < spectrum.size(); ++i) {
    input[i][0] = static_cast<float>(spectrum[i].real());
    input[i][1] = static_cast<float>(spectrum[i].imag());
  }
  image psf{width, height, {}};
  auto output = cpu::make_fftwf_array<float>(static_cast<std::size_t>(width * height));
  {
    cpu::fftwf_plan_owner plan;
    {
      const std::lock_guard<std::mutex> lock(cpu::fftw_planner_mutex());
      cpu::plan_with_threads(1);  // the same plan, and the same PSF to the bit, on every machine
      plan = cpu::fftwf_plan_owner(fftwf_plan_dft_c2r_2d(static_cast<int>(height), static_cast<int>(width), input.get(),
                                                         output.get(), FFTW_ESTIMATE));
    }
    fftwf_execute(plan.get());
  }
  psf.pixels.assign(output.get(), output.get() + width * height);
  // Dividing by the centre's own value makes it exactly 1.
  const float peak = psf.at(psf_centre(width), psf_centre(height));
  for (float& value : psf.pixels) value /= peak;
  return psf;
}

}  // namespace bkt::clean::synthetic
