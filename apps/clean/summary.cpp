#include "summary.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "options.hpp"
#include "summary_parts.hpp"

namespace bkt::clean {

namespace summary_parts {

std::string number(double value, const char* format) {
  char text[48];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

std::string stop_description(stop_reason reason) {
  switch (reason) {
    case stop_reason::niter: return "niter: took --niter components";
    case stop_reason::threshold: return "threshold: peak residual at or below the threshold";
    case stop_reason::diverged: return "diverged: the peak grew above 1.1 x the first one";
    case stop_reason::no_pixels: return "no pixels: no candidate pixel left (mask or all NaN)";
    case stop_reason::nmiter: return "nmiter: ran --nmiter major cycles";
  }
  return "";
}

double degrees(double radians) { return radians * 180 / std::numbers::pi; }

std::string beam_text(const beam& pixels, const std::optional<sky_beam>& sky, const std::string& source) {
  const std::string in_pixels = number(pixels.major_fwhm, "%.3g") + " x " + number(pixels.minor_fwhm, "%.3g") +
                                " pixels at " + number(degrees(pixels.angle), "%.1f") + " deg from +x";
  if (!sky) return in_pixels + " (" + source + ")";
  return number(sky->major_deg * 3600, "%.3g") + "\" x " + number(sky->minor_deg * 3600, "%.3g") + "\", PA " +
         number(sky->position_angle_deg, "%.1f") + " deg (" + source + "; " + in_pixels + ")";
}

nlohmann::json beam_json(const beam& pixels, const std::optional<sky_beam>& sky, const std::string& source) {
  nlohmann::json json = {{"source", source},
                         {"major_pixels", pixels.major_fwhm},
                         {"minor_pixels", pixels.minor_fwhm},
                         {"angle_deg", degrees(pixels.angle)}};
  if (sky) {
    json["major_arcsec"] = sky->major_deg * 3600;
    json["minor_arcsec"] = sky->minor_deg * 3600;
    json["pa_deg"] = sky->position_angle_deg;
  }
  return json;
}

void line(std::string& text, const std::string& label, const std::string& value) {
  char head[32];
  std::snprintf(head, sizeof head, "  %-15s ", label.c_str());
  text += head + value + "\n";
}

nlohmann::json run_json(const run_summary& summary) {
  return {{"tool", "bkt-clean"},
          {"device", summary.device},
          {"algorithm", algorithm_name(summary.method)},
          {"dirty", summary.dirty_path},
          {"psf", summary.psf_path},
          {"width", summary.width},
          {"height", summary.height},
          {"image_planes", summary.image_planes},
          {"unit", summary.unit},
          {"model_unit", summary.model_unit},
          {"time_s",
           {{"read", summary.read_seconds},
            {"clean", summary.clean_seconds},
            {"restore", summary.restore_seconds},
            {"total", summary.total_seconds}}},
          {"outputs", summary.outputs},
          {"notes", summary.notes}};
}

void outputs_and_notes(std::string& text, const std::vector<std::string>& outputs, const std::vector<std::string>& notes) {
  std::string files;
  for (const std::string& output : outputs) files += (files.empty() ? "" : " ") + output;
  line(text, "outputs", files);
  for (const std::string& note : notes) line(text, "note", note);
}

std::string cycles_text(const std::vector<noise_cycle>& cycles, const std::string& unit) {
  std::string text;
  bool masked = false;
  for (const noise_cycle& cycle : cycles) {
    if (!text.empty()) text += cycle.masked && !masked ? " | " : " ";
    masked = cycle.masked;
    text += number(cycle.sigma);
  }
  return text + unit + " per cycle (" + std::to_string(cycles.size()) + (masked ? "; | auto-mask on)" : ")");
}

nlohmann::json cycles_json(const std::vector<noise_cycle>& cycles) {
  nlohmann::json list = nlohmann::json::array();
  for (const noise_cycle& cycle : cycles)
    list.push_back({{"sigma", cycle.sigma}, {"level", cycle.level}, {"iterations", cycle.iterations},
                    {"masked", cycle.masked}});
  return list;
}

}  // namespace summary_parts

namespace {

using namespace summary_parts;

struct totals {
  std::int64_t iterations = 0, component_pixels = 0, major_cycles = 0;
  double model_flux = 0, peak_residual = 0, residual_rms = 0;
  std::string stop;  // the planes' common stop reason, or "mixed"
};

totals total_of(const run_summary& summary) {
  totals sum;
  double square_sum = 0;
  std::int64_t counted = 0;
  for (const plane_summary& plane : summary.planes) {
    if (plane.skipped) continue;
    sum.iterations += plane.iterations;
    sum.component_pixels += plane.component_pixels;
    sum.major_cycles += plane.major_cycles;
    sum.model_flux += plane.model_flux;
    sum.peak_residual = std::max(sum.peak_residual, plane.peak_residual);
    square_sum += plane.residual_rms * plane.residual_rms;
    ++counted;
    const std::string name = stop_reason_name(plane.reason);
    sum.stop = sum.stop.empty() || sum.stop == name ? name : "mixed";
  }
  // Planes have equal pixel counts, so the RMS over the cube is the RMS of the planes' RMS.
  sum.residual_rms = counted > 0 ? std::sqrt(square_sum / static_cast<double>(counted)) : 0;
  if (sum.stop.empty()) sum.stop = "no_pixels";
  return sum;
}

}  // namespace

std::string stop_reason_name(stop_reason reason) {
  switch (reason) {
    case stop_reason::niter: return "niter";
    case stop_reason::threshold: return "threshold";
    case stop_reason::diverged: return "diverged";
    case stop_reason::no_pixels: return "no_pixels";
    case stop_reason::nmiter: return "nmiter";
  }
  return "unknown";
}

std::string format_summary(const run_summary& summary) {
  if (summary.joint) return format_joint_summary(summary);
  const totals sum = total_of(summary);
  const auto planes = static_cast<std::int64_t>(summary.planes.size());
  std::string text = "bkt-clean: " + algorithm_name(summary.method) + " on " +
                     summary.device + ", " + std::to_string(summary.width) + " x " + std::to_string(summary.height) +
                     " pixels, " + std::to_string(planes) + (planes == 1 ? " plane" : " planes") + "\n";
  const std::string unit = " " + summary.unit;
  line(text, "iterations", std::to_string(sum.iterations));
  line(text, "components", std::to_string(sum.component_pixels) + " pixels, model sum " + number(sum.model_flux) + " " +
                               summary.model_unit);
  line(text, "major cycles", std::to_string(sum.major_cycles));
  if (planes == 1 && !summary.planes.front().skipped) {
    const plane_summary& only = summary.planes.front();
    line(text, "stop", stop_description(only.reason));
    std::string threshold = number(only.threshold) + unit;
    if (only.noise_sigma) threshold += " (auto: MAD noise " + number(*only.noise_sigma) + unit + ")";
    line(text, "threshold", threshold);
    if (!only.noise_cycles.empty()) line(text, "noise", cycles_text(only.noise_cycles, unit));
  } else {
    line(text, "stop", sum.stop);
  }
  line(text, "peak residual", number(sum.peak_residual) + unit);
  line(text, "residual RMS", number(sum.residual_rms) + unit);
  line(text, "beam", beam_text(summary.restoring_beam, summary.restoring_sky_beam, summary.beam_given ? "given" : "fitted"));
  line(text, "time", number(summary.total_seconds, "%.3f") + " s (read " + number(summary.read_seconds, "%.3f") +
                         ", clean " + number(summary.clean_seconds, "%.3f") + ", restore " +
                         number(summary.restore_seconds, "%.3f") + ")");
  if (planes > 1) {
    text += "  plane  iterations  pixels  cycles  peak residual  residual RMS  threshold  stop\n";
    for (const plane_summary& plane : summary.planes) {
      char row[160];
      if (plane.skipped)
        std::snprintf(row, sizeof row, "  %5lld  (every pixel NaN: skipped)\n", static_cast<long long>(plane.plane));
      else
        std::snprintf(row, sizeof row, "  %5lld  %10lld  %6lld  %6lld  %13.4g  %12.4g  %9.4g  %s\n",
                      static_cast<long long>(plane.plane), static_cast<long long>(plane.iterations),
                      static_cast<long long>(plane.component_pixels), static_cast<long long>(plane.major_cycles),
                      plane.peak_residual, plane.residual_rms, plane.threshold, stop_reason_name(plane.reason).c_str());
      text += row;
    }
  }
  outputs_and_notes(text, summary.outputs, summary.notes);
  return text;
}

nlohmann::json summary_json(const run_summary& summary) {
  if (summary.joint) return joint_summary_json(summary);
  const totals sum = total_of(summary);
  nlohmann::json planes = nlohmann::json::array();
  for (const plane_summary& plane : summary.planes) {
    nlohmann::json entry = {{"plane", plane.plane}, {"skipped", plane.skipped}};
    if (!plane.skipped) {
      entry.update({{"iterations", plane.iterations},
                    {"components", plane.iterations},
                    {"component_pixels", plane.component_pixels},
                    {"major_cycles", plane.major_cycles},
                    {"model_flux", plane.model_flux},
                    {"peak_residual", plane.peak_residual},
                    {"residual_rms", plane.residual_rms},
                    {"stop_reason", stop_reason_name(plane.reason)},
                    {"threshold", plane.threshold},
                    {"noise_sigma", plane.noise_sigma ? nlohmann::json(*plane.noise_sigma) : nlohmann::json(nullptr)},
                    {"noise_cycles", cycles_json(plane.noise_cycles)}});
      if (plane.fitted_beam)
        entry["fitted_beam_pixels"] = {{"major", plane.fitted_beam->major_fwhm},
                                       {"minor", plane.fitted_beam->minor_fwhm},
                                       {"angle_deg", degrees(plane.fitted_beam->angle)}};
    }
    planes.push_back(std::move(entry));
  }
  const nlohmann::json beam =
      beam_json(summary.restoring_beam, summary.restoring_sky_beam, summary.beam_given ? "given" : "fitted");
  nlohmann::json json = run_json(summary);
  json.update({{"iterations", sum.iterations},
              {"components", sum.iterations},
              {"component_pixels", sum.component_pixels},
              {"major_cycles", sum.major_cycles},
              {"model_flux", sum.model_flux},
              {"peak_residual", sum.peak_residual},
              {"residual_rms", sum.residual_rms},
              {"stop_reason", sum.stop},
              {"beam", beam},
              {"planes", planes}});
  if (summary.planes.size() == 1 && !summary.planes.front().skipped) {
    json["threshold"] = summary.planes.front().threshold;
    json["noise_sigma"] = planes.front()["noise_sigma"];
    json["noise_cycles"] = planes.front()["noise_cycles"];
  }
  return json;
}

}  // namespace bkt::clean
