// The pieces both summaries are made of (summary.cpp for Högbom and Clark, joint_summary.cpp for
// the joint engine), so that their lines read alike.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "deconvolve.hpp"
#include "image.hpp"
#include "io/beam_geometry.hpp"
#include "noise_cycles.hpp"

namespace bkt::clean {
struct run_summary;
}

namespace bkt::clean::summary_parts {

/// `value` through printf's `format`.
std::string number(double value, const char* format = "%.4g");
/// "threshold: peak residual at or below the threshold", and so on.
std::string stop_description(stop_reason reason);
double degrees(double radians);
/// `49.5" x 34.9", PA 0.0 deg (SOURCE; 8.25 x 5.82 pixels at 90.0 deg from +x)`, the pixels alone
/// without a sky beam.
std::string beam_text(const beam& pixels, const std::optional<sky_beam>& sky, const std::string& source);
/// {"source", "major_pixels", "minor_pixels", "angle_deg"} and, with a sky beam, "major_arcsec",
/// "minor_arcsec", "pa_deg".
nlohmann::json beam_json(const beam& pixels, const std::optional<sky_beam>& sky, const std::string& source);
/// Appends "  LABEL           VALUE\n".
void line(std::string& text, const std::string& label, const std::string& value);
/// The fields every JSON summary has: the tool, device, algorithm, inputs and their size, units,
/// times, outputs and notes.
nlohmann::json run_json(const run_summary& summary);
/// Appends the "outputs" line (the files, space-separated) and a "note" line per note.
void outputs_and_notes(std::string& text, const std::vector<std::string>& outputs, const std::vector<std::string>& notes);
/// "3.1 2.1 1.5 | 1.4 UNIT per cycle (4; | auto-mask on)": each cycle's noise, a bar where the
/// auto-mask began.
std::string cycles_text(const std::vector<noise_cycle>& cycles, const std::string& unit);
/// [{"sigma", "level", "iterations", "masked"}, ...]
nlohmann::json cycles_json(const std::vector<noise_cycle>& cycles);

}  // namespace bkt::clean::summary_parts
