// The files one bkt-clean run writes beside --prefix P: P-model.fits, P-residual.fits,
// P-image.fits (the restored image, WSClean's name), P-restored.fits (a symbolic link to
// P-image.fits, the name earlier releases wrote), P-sources.txt, P-components.json, and the
// --plot file. They are outputs of the run's bkt::apps::output_set: created as temporaries before
// the inputs are read (an unwritable prefix or plot path fails at once) and shown by its
// commit_all() with the --json summary; a failure anywhere before that leaves none of them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bkt_apps/output_set.hpp"
#include "clean_inputs.hpp"
#include "fits_write.hpp"
#include "quick_look.hpp"

namespace bkt::clean {

struct output_paths {
  std::string model, residual, image, sources, components;
  std::string restored_link;  // P-restored.fits -> P-image.fits
  std::string plot;           // empty: no plot
};

/// The paths for --prefix `prefix` and --plot `plot`.
output_paths output_paths_for(const std::string& prefix, const std::string& plot);

/// BUNIT of the model and of the residual and restored images, from the dirty image's BUNIT:
/// JY/PIXEL and JY/BEAM for a Jy/beam image (or one without BUNIT); for another unit per beam
/// (mJy/beam) the model gets that unit per pixel; any other unit (K) is kept for all three.
struct output_units {
  std::string model;
  std::string image;
};
output_units units_for(const std::optional<std::string>& input_bunit);

/// The deconvolved images of one plane.
struct plane_images {
  std::int64_t plane = 0;  // the dirty image's plane number
  image model, residual, restored;
};

/// P-sources.txt and P-components.json, as text.
struct component_files {
  std::string sources, json;
};

/// The symbolic link of the name earlier releases wrote the restored image under (P-restored.fits),
/// kept for one release beside the file that now holds it.
std::string restored_link_path(const std::string& prefix);

/// What the outputs say about the run.
struct output_notes {
  std::optional<sky_beam> beam;       // the restoring beam, when the image has a celestial WCS
  std::vector<std::string> history;   // HISTORY lines for every FITS output
  nlohmann::json summary;             // embedded in P-components.json
  std::optional<bkt::clean::beam> restoring_beam;  // in pixels, drawn on the plot
};

/// The component files of a Högbom or Clark run: a POINT component per model pixel that is not
/// zero (component_list.hpp), plane by plane, with `notes.summary` in the JSON.
component_files model_component_files(const clean_inputs& inputs, const std::vector<plane_images>& planes,
                                      const output_notes& notes);

/// Draws `look` into `file`, in the format its name's extension gives (PNG, SVG or PDF).
void write_plot(bkt::apps::output_file& file, const quick_look_input& look);

class clean_outputs {
 public:
  /// Adds every file to `outputs`, the model's first, and the P-restored.fits link; throws
  /// app_error "PATH: cannot create: REASON".
  clean_outputs(const output_paths& paths, bkt::apps::output_set& outputs);

  /// Encodes everything (FITS planes in the input's layout, or a single plane of it) and writes
  /// it, the component files from the models' pixels; the set's commit_all() shows the files.
  /// `planes` are in inputs.planes order.
  void write(const clean_inputs& inputs, const std::vector<plane_images>& planes, const output_notes& notes);
  /// The same with the component files given (the joint engine's components, by scale).
  void write(const clean_inputs& inputs, const std::vector<plane_images>& planes, const output_notes& notes,
             const component_files& components);

 private:
  output_paths paths_;
  std::vector<bkt::apps::output_file*> files_;  // model, residual, image, sources, components, [plot]
};

}  // namespace bkt::clean
