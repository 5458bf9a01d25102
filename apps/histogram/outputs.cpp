#include "outputs.hpp"

#include <sstream>
#include <string>

#include "bkt_apps/app_error.hpp"
#include "bkt_apps/cli.hpp"
#include "render_bars.hpp"
#include "render_json.hpp"
#include "render_plot.hpp"
#include "render_table.hpp"

namespace bkt::apps::histogram {

histogram_outputs::histogram_outputs(const options& opts) : opts_(opts) {
  for (const std::string* input : {&opts.input.path, &opts.edges_path, &opts.weights_path})
    if (!input->empty()) outputs_.protect_input(*input);
  if (!opts.plot_path.empty()) plot_ = &outputs_.add(opts.plot_path);
  json_ = add_json_summary(outputs_, opts.common);
  // `--json -` puts the JSON where the table would go; the table then appears only with -o FILE.
  const bool json_on_standard_output = json_ != nullptr && json_->is_standard_output();
  if (!json_on_standard_output || !opts.output_path.empty())
    text_ = &outputs_.add(opts.output_path.empty() ? "-" : opts.output_path);
}

void histogram_outputs::write(const histogram_result& result) {
  // check_options caught --bins; this catches an --edges file with too many bins to draw.
  if (plot_ && result.bins() > plot_max_bins)
    throw usage_error("--plot draws at most " + std::to_string(plot_max_bins) + " bins; " + opts_.edges_path + " has " +
                      std::to_string(result.bins()));
  if (plot_)  // drawn straight into the output's temporary
    render_plot(result, *plot::file_format_of(opts_.plot_path), plot_->name(),
                [this](std::string_view bytes) { plot_->write(bytes); });
  if (json_) {
    std::ostringstream json;
    render_json(result, json);
    json_->write(json.str());
  }
  if (text_) {
    std::ostringstream text;
    if (opts_.bars)
      render_bars(result, text_->is_standard_output() ? output_columns() : 80, text);
    else
      render_table(result, text);
    text_->write(text.str());
  }
}

}  // namespace bkt::apps::histogram
