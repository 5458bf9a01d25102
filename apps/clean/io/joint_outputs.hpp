// The files a run through the joint engine writes beside --prefix P, with WSClean's names:
//  - from channel files: P-000N-model.fits, P-000N-residual.fits, P-000N-image.fits per channel,
//    each with its channel file's header;
//  - from a cube (or one image): P-model.fits, P-residual.fits, P-image.fits in the input's
//    layout (clean_outputs);
//  - joined channels: P-MFS-model.fits, P-MFS-residual.fits, P-MFS-image.fits, with
//    NAME-MFS-dirty.fits's header, else channel 0's (the cube's) with its FREQ axis at the
//    reference frequency over the whole band;
//  - P-sources.txt, P-components.json, the --plot file (the MFS images when joined, else the
//    first plane), and P-restored.fits, a symbolic link to P-image.fits (P-MFS-image.fits from
//    channel files), the name earlier releases wrote the restored image under.
// All of them are outputs of the run's bkt::apps::output_set, made before the inputs are read.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bkt_apps/output_set.hpp"
#include "clean_outputs.hpp"
#include "joint_inputs.hpp"

namespace bkt::clean {

/// The images a joint run made.
struct joint_images {
  std::vector<plane_images> channels;  // per input channel, in order (plane: its plane in a cube)
  std::optional<plane_images> mfs;     // joined channels
};

/// What the files state beyond the images.
struct joint_output_notes {
  std::vector<std::optional<sky_beam>> channel_beams;  // per input channel: its file's BMAJ/BMIN/BPA
  std::optional<sky_beam> cube_beam;                   // the cubes' BMAJ/BMIN/BPA (one for every plane)
  std::optional<sky_beam> mfs_beam;
  std::optional<beam> plot_beam;                       // pixels, drawn on the plot
  std::optional<double> mfs_frequency_hz;              // the MFS header's FREQ axis when made here:
  std::optional<double> mfs_bandwidth_hz;              // its CRVAL and CDELT
  std::vector<std::string> history;                    // HISTORY lines of every FITS output
  component_files components;
};

class joint_outputs {
 public:
  /// Adds every file to `outputs`: `channel_files` channels' files (0: the cubes), the MFS images
  /// when `mfs`, the component files, the plot (`plot` empty: none) and the link. Throws
  /// app_error "PATH: cannot create: REASON".
  joint_outputs(const std::string& prefix, const std::string& plot, std::size_t channel_files, bool mfs,
                bkt::apps::output_set& outputs);

  /// Every output, in the order added (the link with the others), for the summary.
  const std::vector<std::string>& paths() const { return paths_; }

  /// Encodes and writes everything; the set's commit_all() shows the files.
  void write(const joint_inputs& inputs, const joint_images& images, const joint_output_notes& notes);

 private:
  bkt::apps::output_file& add(const std::string& path);
  void write_mfs(const joint_inputs& inputs, const plane_images& mfs, const joint_output_notes& notes);
  void write_plot(const joint_inputs& inputs, const joint_images& images, const joint_output_notes& notes);

  bkt::apps::output_set& set_;
  std::vector<std::string> paths_;
  std::optional<clean_outputs> cubes_;                 // from a cube
  std::vector<bkt::apps::output_file*> channel_files_;  // model, residual, image per channel
  std::vector<bkt::apps::output_file*> mfs_files_;      // model, residual, image
  bkt::apps::output_file* sources_ = nullptr;
  bkt::apps::output_file* components_ = nullptr;
  bkt::apps::output_file* plot_ = nullptr;
};

}  // namespace bkt::clean
