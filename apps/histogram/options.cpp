#include "options.hpp"

#include <cctype>
#include <charconv>
#include <string_view>

#include "binning.hpp"
#include "bkt_apps/app_error.hpp"
#include "bkt_apps/number_options.hpp"
#include "bkt_apps/plot/canvas.hpp"
#include "render_plot.hpp"

namespace bkt::apps::histogram {
namespace {

std::optional<double> parse_number(std::string_view text) {
  double value = 0.0;
  const auto [end, code] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (code != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

constexpr const char* description =
    "Histogram of one column of numbers (raw binary, .npy or text/CSV; a file or standard input), binned on "
    "the GPU when there is one, else on the CPU. Files larger than memory stream through in chunks.\n\n"
    "Bins follow numpy.histogram for the same data type: bin i holds [edge i, edge i+1), the last bin also "
    "its upper edge. --bins N over --range LO:HI (edges as numpy.linspace(LO, HI, N + 1)), or --log (equal "
    "widths in log10, LO > 0), or --edges FILE. Without --range the data's finite min and max are used, as "
    "NumPy uses them: a file is then read twice, standard input is held in memory (give --range to stream it). "
    "u64 and i64 data is converted to f64 (an error for |x| > 2^53). Values below, above and NaN (which NumPy "
    "refuses when it takes the range from the data) are counted apart.\n\n"
    "Output: a table on standard output (lower edge, upper edge, count or weight sum, fraction of the in-range "
    "total; a last line with what fell outside); --json FILE the same as JSON with timings; --plot a bar chart "
    "(PNG, SVG or PDF); --bars a terminal bar chart.";

}  // namespace

input_options options::weights_input() const {
  input_options weights = input;
  weights.path = weights_path;
  if (weights_type) weights.type = weights_type;
  if (weights_column) weights.column = weights_column;
  return weights;
}

void add_options(CLI::App& app, options& opts) {
  app.description(description);
  app.add_option("INPUT", opts.input.path, "the data file; '-' or none: standard input")->type_name("FILE");
  add_input_flags(app, opts.input);
  add_common_flags(app, opts.common, "bkt-histogram");
  // Here --json carries the whole histogram, not only a timing summary.
  app.get_option("--json")->description(
      "write the histogram as JSON to FILE (edges, counts or sums, outside, totals, timing); '-': standard "
      "output, in place of the table");

  auto* bins = app.add_option("--bins", opts.bins, "number of bins, 1 to 2^24 (default 10)")->type_name("N");
  bins->transform(bkt::apps::whole_number(1, std::int64_t{1} << 24));
  auto* range =
      app.add_option_function<std::string>(
             "--range",
             [&opts](const std::string& text) {
               const auto colon = text.find(':');
               const auto lo = colon == std::string::npos ? std::nullopt : parse_number(std::string_view(text).substr(0, colon));
               const auto hi = colon == std::string::npos ? std::nullopt : parse_number(std::string_view(text).substr(colon + 1));
               if (!lo || !hi) throw CLI::ValidationError("--range", "'" + text + "' is not LO:HI (two numbers)");
               opts.range_lo = lo;
               opts.range_hi = hi;
             },
             "bin [LO, HI] (the upper end in the last bin), e.g. --range -5:5; default: the data's min and max")
          ->type_name("LO:HI");
  auto* log = app.add_flag("--log", opts.log, "bins of equal width in log10 over [LO, HI], LO > 0; values <= 0 are below");
  auto* edges = app.add_option("--edges", opts.edges_path,
                               "bin between the ascending edges in FILE (text, one per line, or .npy) instead of "
                               "--bins/--range: bin i is [edge i, edge i+1), the last bin closed")
                    ->type_name("FILE");
  edges->excludes(bins)->excludes(range)->excludes(log);

  app.add_option("--weights", opts.weights_path,
                 "sum the weights in FILE (one per value, read like the data) instead of counting; sums in f64")
      ->type_name("FILE");
  app.add_option_function<std::string>(
         "--weights-dtype", [&opts](const std::string& name) { opts.weights_type = parse_dtype(name); },
         "element type of raw weights (default: --dtype)")
      ->type_name("TYPE")
      ->check(CLI::Validator(
          [](std::string& name) { return parse_dtype(name) ? std::string() : "unknown type '" + name + "'"; },
          ""));
  app.add_option_function<std::int64_t>(
         "--weights-column", [&opts](std::int64_t column) { opts.weights_column = column; },
         "the column of the weights file (default: --column)")
      ->type_name("N")
      ->transform(bkt::apps::whole_number(1));

  app.add_option("-o,--output", opts.output_path, "write the table (or --bars chart) to FILE, whole or not at all")
      ->type_name("FILE");
  app.add_option("--plot", opts.plot_path, "draw a bar chart to FILE: .png, .svg or .pdf (at most 65536 bins)")->type_name("FILE");
  app.add_flag("--bars", opts.bars, "print a bar chart of Unicode blocks instead of the table");
  app.add_option("--chunk-items", opts.chunk_items, "elements read and binned at a time (default 2^24)")
      ->type_name("N")
      ->transform(bkt::apps::whole_number(1, std::int64_t{1} << 40))
      ->group("Advanced");
}

void check_options(const options& opts) {
  if (opts.weighted() && is_standard_stream(opts.input.path) && is_standard_stream(opts.weights_path))
    throw usage_error("the data and --weights cannot both come from standard input");
  if (!opts.edges_path.empty() && is_standard_stream(opts.edges_path))
    throw usage_error("--edges needs a file, not standard input");
  if (opts.common.json_path == "-" && !opts.output_path.empty() && is_standard_stream(opts.output_path))
    throw usage_error("--json - and -o - cannot share standard output");
  if (opts.range_given()) check_range(*opts.range_lo, *opts.range_hi, opts.log);
  if (!opts.plot_path.empty() && !plot::file_format_of(opts.plot_path))
    throw usage_error("--plot " + quoted_excerpt(opts.plot_path) + ": the name must end in " + plot::file_extensions);
  if (!opts.plot_path.empty() && opts.edges_path.empty() && opts.bins > plot_max_bins)
    throw usage_error("--plot draws at most " + std::to_string(plot_max_bins) + " bins; --bins " +
                      std::to_string(opts.bins) + " is more");
}

}  // namespace bkt::apps::histogram
