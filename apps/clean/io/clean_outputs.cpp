#include "clean_outputs.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>

#include "bkt_apps/plot/canvas.hpp"
#include "component_list.hpp"
#include "fits_header.hpp"
#include "sky_wcs.hpp"

namespace bkt::clean {
namespace {

std::string upper(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

/// Axis lengths and CRPIX updates for the outputs: the input's layout when every plane was
/// deconvolved; else axes 3 and 4 of length 1, their CRPIX moved so that the one plane keeps its
/// world coordinates (FITS's default CRPIX is 0).
std::vector<std::int64_t> output_layout(const clean_inputs& inputs, fits_output_keys& keys) {
  std::vector<std::int64_t> lengths = inputs.dirty.axis_lengths;
  if (!inputs.is_subset()) return lengths;
  const auto position = inputs.dirty.plane_position(inputs.planes.front());
  for (std::size_t axis = 2; axis < lengths.size(); ++axis) {
    lengths[axis] = 1;
    const std::string keyword = "CRPIX" + std::to_string(axis + 1);
    const double reference = header_number(inputs.dirty.header, keyword).value_or(0.0);
    if (position[axis - 2] != 0) keys.numbers.emplace_back(keyword, reference - static_cast<double>(position[axis - 2]));
  }
  return lengths;
}

}  // namespace

component_files model_component_files(const clean_inputs& inputs, const std::vector<plane_images>& planes,
                                      const output_notes& notes) {
  const sky_wcs wcs(inputs.dirty.header);
  std::vector<sky_component> all;
  for (const plane_images& plane : planes) {
    auto found = model_components(plane.model, plane.plane, inputs.dirty.plane_position(plane.plane), wcs);
    all.insert(all.end(), found.begin(), found.end());
  }
  nlohmann::json document = {{"summary", notes.summary}, {"components", components_json(all)}};
  if (!wcs.has_celestial()) document["note"] = "positions in pixels only: " + wcs.note();
  return {wsclean_source_list(all, wcs.frequency_hz(inputs.dirty.plane_position(planes.front().plane))),
          document.dump(2) + "\n"};
}

void write_plot(bkt::apps::output_file& file, const quick_look_input& look) {
  // Drawn straight into the output's temporary, which the set renames with the others.
  write_quick_look(look, *bkt::apps::plot::file_format_of(file.name()), file.name(),
                   [&file](std::string_view bytes) { file.write(bytes); });
}

std::string restored_link_path(const std::string& prefix) { return prefix + "-restored.fits"; }

output_paths output_paths_for(const std::string& prefix, const std::string& plot) {
  return {prefix + "-model.fits",  prefix + "-residual.fits",    prefix + "-image.fits",
          prefix + "-sources.txt", prefix + "-components.json", restored_link_path(prefix), plot};
}

output_units units_for(const std::optional<std::string>& input_bunit) {
  if (!input_bunit || input_bunit->empty() || upper(*input_bunit) == "JY/BEAM") return {"JY/PIXEL", "JY/BEAM"};
  const std::string unit = *input_bunit;
  const std::string per_beam = "/BEAM";
  if (unit.size() > per_beam.size() && upper(unit.substr(unit.size() - per_beam.size())) == per_beam)
    return {unit.substr(0, unit.size() - per_beam.size()) + "/PIXEL", unit};
  return {unit, unit};
}

clean_outputs::clean_outputs(const output_paths& paths, bkt::apps::output_set& outputs) : paths_(paths) {
  for (const std::string* path : {&paths.model, &paths.residual, &paths.image, &paths.sources, &paths.components})
    files_.push_back(&outputs.add(*path));
  if (!paths.plot.empty()) files_.push_back(&outputs.add(paths.plot));
  outputs.add_link(paths.restored_link, *files_[2]);
}

void clean_outputs::write(const clean_inputs& inputs, const std::vector<plane_images>& planes, const output_notes& notes) {
  write(inputs, planes, notes, model_component_files(inputs, planes, notes));
}

void clean_outputs::write(const clean_inputs& inputs, const std::vector<plane_images>& planes, const output_notes& notes,
                          const component_files& components) {
  const output_units units = units_for(header_value(inputs.dirty.header, "BUNIT"));
  fits_output_keys image_keys;
  image_keys.beam = notes.beam;
  image_keys.history = notes.history;
  const std::vector<std::int64_t> lengths = output_layout(inputs, image_keys);
  fits_output_keys model_keys = image_keys;
  model_keys.bunit = units.model;
  image_keys.bunit = units.image;

  const auto encode = [&](image plane_images::*member, const fits_output_keys& keys, const std::string& name) {
    std::vector<image> pixels;
    for (const plane_images& plane : planes) pixels.push_back(plane.*member);
    return encode_fits_image(lengths, inputs.dirty.header, pixels, keys, name);
  };
  files_[0]->write(encode(&plane_images::model, model_keys, paths_.model));
  files_[1]->write(encode(&plane_images::residual, image_keys, paths_.residual));
  files_[2]->write(encode(&plane_images::restored, image_keys, paths_.image));
  files_[3]->write(components.sources);
  files_[4]->write(components.json);
  if (!paths_.plot.empty()) {
    // A cube's plot shows its first deconvolved plane.
    const sky_wcs wcs(inputs.dirty.header);
    std::optional<beam> restoring_beam = notes.restoring_beam;
    if (!restoring_beam && notes.beam && wcs.scale()) restoring_beam = beam_in_pixels(*notes.beam, *wcs.scale());
    write_plot(*files_[5], {planes.front().restored, planes.front().residual, units.image, wcs, inputs.dirty.header,
                            inputs.dirty.plane_position(planes.front().plane), restoring_beam});
  }
  for (bkt::apps::output_file* file : files_) file->finish();
}

}  // namespace bkt::clean
