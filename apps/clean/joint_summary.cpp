// format_joint_summary and joint_summary_json: the joint run's figures in the lines and keys of
// summary.cpp, with its scales, cycles, channels and MFS image.
#include <cstdio>

#include "cpu/stop_rules.hpp"
#include "options.hpp"
#include "summary.hpp"
#include "summary_parts.hpp"

namespace bkt::clean {
namespace {

using namespace summary_parts;

struct totals {
  std::int64_t iterations = 0, major_cycles = 0, minor_loops = 0;
  std::string stop;  // the runs' common stop reason, or "mixed"
};

totals total_of(const joint_summary& joint) {
  totals sum;
  for (const joint_run_figures& run : joint.runs) {
    sum.iterations += run.iterations;
    sum.major_cycles += run.major_cycles;
    sum.minor_loops += run.minor_loops;
    const std::string name = stop_reason_name(run.reason);
    sum.stop = sum.stop.empty() || sum.stop == name ? name : "mixed";
  }
  if (sum.stop.empty()) sum.stop = "no_pixels";
  return sum;
}

/// stop_description, with the joint engine's divergence rules (joint/joint_clean.hpp).
std::string joint_stop_description(stop_reason reason, algorithm method) {
  if (reason != stop_reason::diverged) return stop_description(reason);
  const std::string factor = number(divergence_factor, "%g");
  return method == algorithm::multiscale
             ? "diverged: a sub-minor loop's peak grew above " + factor + " x its start, or a scale's above " +
                   number(multiscale_divergence_limit, "%g") + " x its major cycle's first"
             : "diverged: a loop's peak grew above " + factor + " x its start, or the integrated peak above " + factor +
                   " x the first";
}

std::string scales_text(const joint_run_figures& run, const joint_summary& joint, algorithm method) {
  if (method != algorithm::multiscale) return "0 (point components)";
  std::string text;
  for (double scale : run.scales) text += (text.empty() ? "" : " ") + number(scale, "%.3g");
  return text + " pixels (" + scale_shape_name(joint.shape) + "; from a beam of " + number(run.beam_fwhm, "%.3g") +
         " pixels)";
}

/// A beam in a table cell: on the sky when there is a WCS, else in pixels.
std::string short_beam(const image_figures& figures) {
  if (!figures.restoring_beam) return "-";
  if (figures.restoring_sky_beam)
    return number(figures.restoring_sky_beam->major_deg * 3600, "%.3g") + "\" x " +
           number(figures.restoring_sky_beam->minor_deg * 3600, "%.3g") + "\" PA " +
           number(figures.restoring_sky_beam->position_angle_deg, "%.1f");
  return number(figures.restoring_beam->major_fwhm, "%.3g") + " x " + number(figures.restoring_beam->minor_fwhm, "%.3g") +
         " px at " + number(degrees(figures.restoring_beam->angle), "%.1f");
}

std::string channel_table(const joint_summary& joint) {
  std::string text = "  channel  frequency (MHz)      weight  model flux  residual RMS  MAD noise  beam\n";
  for (const channel_figures& channel : joint.channels) {
    char row[200];
    const std::string frequency = channel.frequency_hz ? number(*channel.frequency_hz / 1e6, "%.6g") : "-";
    if (channel.skipped)
      std::snprintf(row, sizeof row, "  %7lld  %15s  (every pixel NaN: left as it came)\n",
                    static_cast<long long>(channel.channel), frequency.c_str());
    else
      std::snprintf(row, sizeof row, "  %7lld  %15s  %10.6g  %10.4g  %12.4g  %9.4g  %s\n",
                    static_cast<long long>(channel.channel), frequency.c_str(), channel.weight, channel.model_flux,
                    channel.residual_rms, channel.residual_sigma, short_beam(channel).c_str());
    text += row;
  }
  return text;
}

std::string scale_table(const joint_run_figures& run) {
  std::string text = "  scale  pixels  components  flux\n";
  for (std::size_t s = 0; s < run.scales.size(); ++s) {
    char row[120];
    std::snprintf(row, sizeof row, "  %5zu  %6.3g  %10lld  %.4g\n", s, run.scales[s],
                  static_cast<long long>(run.per_scale[s].components), run.per_scale[s].flux);
    text += row;
  }
  return text;
}

/// Several runs (a cube's planes each cleaned alone): a row each.
std::string run_table(const joint_summary& joint) {
  std::string text = "  plane  iterations  cycles  loops  scales  threshold  stop\n";
  for (const joint_run_figures& run : joint.runs) {
    char row[160];
    std::snprintf(row, sizeof row, "  %5lld  %10lld  %6lld  %5lld  %6zu  %9.4g  %s\n",
                  static_cast<long long>(joint.channels[static_cast<std::size_t>(run.channels.front())].channel),
                  static_cast<long long>(run.iterations), static_cast<long long>(run.major_cycles),
                  static_cast<long long>(run.minor_loops), run.scales.size(), run.threshold,
                  stop_reason_name(run.reason).c_str());
    text += row;
  }
  return text;
}

std::string image_text(const image_figures& figures, const std::string& unit, const std::string& model_unit) {
  return "model " + number(figures.model_flux) + " " + model_unit + ", residual RMS " + number(figures.residual_rms) +
         " " + unit + ", MAD noise " + number(figures.residual_sigma) + " " + unit;
}

nlohmann::json image_json(const image_figures& figures) {
  nlohmann::json json = {{"model_flux", figures.model_flux},
                         {"residual_rms", figures.residual_rms},
                         {"residual_sigma", figures.residual_sigma}};
  json["beam"] = figures.restoring_beam
                     ? beam_json(*figures.restoring_beam, figures.restoring_sky_beam, figures.beam_source)
                     : nlohmann::json(nullptr);
  return json;
}

nlohmann::json run_json(const joint_run_figures& run) {
  nlohmann::json per_scale = nlohmann::json::array();
  for (std::size_t s = 0; s < run.scales.size(); ++s)
    per_scale.push_back({{"scale", run.scales[s]},
                         {"components", run.per_scale[s].components},
                         {"flux", run.per_scale[s].flux}});
  nlohmann::json left_out = nlohmann::json::array();
  for (const unsampled_scale& scale : run.scales_left_out)
    left_out.push_back({{"scale", scale.size}, {"sampled_fraction", scale.sampled_fraction}});
  return {{"channels", run.channels},
          {"scales", run.scales},
          {"scales_left_out", left_out},
          {"per_scale", per_scale},
          {"noise_cycles", cycles_json(run.cycles)},
          {"iterations", run.iterations},
          {"components", run.iterations},
          {"major_cycles", run.major_cycles},
          {"minor_loops", run.minor_loops},
          {"stop_reason", stop_reason_name(run.reason)},
          {"peak_residual", run.peak_residual},
          {"threshold", run.threshold},
          {"noise_sigma", run.noise_sigma ? nlohmann::json(*run.noise_sigma) : nlohmann::json(nullptr)},
          {"beam_fwhm_pixels", run.beam_fwhm}};
}

}  // namespace

std::string format_joint_summary(const run_summary& summary) {
  const joint_summary& joint = *summary.joint;
  const totals sum = total_of(joint);
  const auto channels = static_cast<std::int64_t>(joint.channels.size());
  std::string text = "bkt-clean: " + algorithm_name(summary.method) + " on " + summary.device + ", " +
                     std::to_string(summary.width) + " x " + std::to_string(summary.height) + " pixels, " +
                     std::to_string(channels) +
                     (joint.joined ? (channels == 1 ? " channel joined" : " channels joined")
                                   : (channels == 1 ? " plane" : " planes, each alone")) +
                     "\n";
  const std::string unit = " " + summary.unit;
  const bool single = joint.runs.size() == 1;
  if (single) line(text, "scales", scales_text(joint.runs.front(), joint, summary.method));
  line(text, "iterations", std::to_string(sum.iterations));
  line(text, "major cycles", std::to_string(sum.major_cycles) + " (" + std::to_string(sum.minor_loops) + " minor loops)");
  if (single) {
    const joint_run_figures& run = joint.runs.front();
    line(text, "stop", joint_stop_description(run.reason, summary.method));
    std::string threshold = number(run.threshold) + unit;
    if (run.noise_sigma) threshold += " (auto: MAD noise " + number(*run.noise_sigma) + unit + ")";
    line(text, "threshold", threshold);
    if (run.noise_sigma) line(text, "noise", cycles_text(run.cycles, unit));
  } else {
    line(text, "stop", sum.stop);
  }
  if (joint.reference_frequency_hz)
    line(text, "spectrum", (joint.spectral_terms > 0 ? std::to_string(joint.spectral_terms) + " terms fitted, " : "") +
                               std::string("reference frequency ") +
                               number(*joint.reference_frequency_hz / 1e6, "%.6g") + " MHz");
  if (joint.mfs) {
    line(text, "MFS", image_text(*joint.mfs, summary.unit, summary.model_unit));
    if (joint.mfs->restoring_beam)
      line(text, "MFS beam", beam_text(*joint.mfs->restoring_beam, joint.mfs->restoring_sky_beam, joint.mfs->beam_source));
  } else if (channels == 1 && joint.channels.front().restoring_beam) {
    const channel_figures& only = joint.channels.front();
    line(text, "image", image_text(only, summary.unit, summary.model_unit));
    line(text, "beam", beam_text(*only.restoring_beam, only.restoring_sky_beam, only.beam_source));
  }
  line(text, "time", number(summary.total_seconds, "%.3f") + " s (read " + number(summary.read_seconds, "%.3f") +
                         ", clean " + number(summary.clean_seconds, "%.3f") + ", restore " +
                         number(summary.restore_seconds, "%.3f") + ")");
  if (single) text += scale_table(joint.runs.front());
  else text += run_table(joint);
  if (channels > 1) text += channel_table(joint);
  outputs_and_notes(text, summary.outputs, summary.notes);
  return text;
}

nlohmann::json joint_summary_json(const run_summary& summary) {
  const joint_summary& joint = *summary.joint;
  const totals sum = total_of(joint);
  nlohmann::json runs = nlohmann::json::array();
  for (const joint_run_figures& run : joint.runs) runs.push_back(run_json(run));
  nlohmann::json channels = nlohmann::json::array();
  for (const channel_figures& channel : joint.channels) {
    nlohmann::json entry = {{"channel", channel.channel},
                            {"name", channel.name},
                            {"frequency_hz", channel.frequency_hz ? nlohmann::json(*channel.frequency_hz) : nlohmann::json(nullptr)},
                            {"weight", channel.weight},
                            {"skipped", channel.skipped}};
    if (!channel.skipped) entry.update(image_json(channel));
    channels.push_back(std::move(entry));
  }
  nlohmann::json json = run_json(summary);
  json.update({{"joined", joint.joined},
              {"input", joint.from_channel_files ? "channel files" : "cube"},
              {"scale_shape", scale_shape_name(joint.shape)},
              {"spectral_terms", joint.spectral_terms},
              {"reference_frequency_hz", joint.reference_frequency_hz ? nlohmann::json(*joint.reference_frequency_hz)
                                                                      : nlohmann::json(nullptr)},
              {"iterations", sum.iterations},
              {"components", sum.iterations},
              {"major_cycles", sum.major_cycles},
              {"minor_loops", sum.minor_loops},
              {"stop_reason", sum.stop},
              {"runs", runs},
              {"channels", channels},
              {"mfs", joint.mfs ? image_json(*joint.mfs) : nlohmann::json(nullptr)},
              {"beam", joint.mfs ? image_json(*joint.mfs)["beam"]
                                 : beam_json(summary.restoring_beam, summary.restoring_sky_beam,
                                             summary.beam_given ? "given" : "fitted")}});
  if (joint.runs.size() == 1) {
    // One engine run: its figures at the top level too, as a one-plane run has them.
    for (const char* key :
         {"scales", "scales_left_out", "per_scale", "noise_cycles", "threshold", "noise_sigma", "peak_residual"})
      json[key] = runs.front()[key];
  }
  return json;
}

}  // namespace bkt::clean
