#include "options.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string_view>
#include <vector>

#include "bkt_apps/app_error.hpp"
#include "bkt_apps/number_options.hpp"
#include "bkt_apps/plot/canvas.hpp"
#include "joint/spectral_fit.hpp"

#ifndef BKT_VERSION
#define BKT_VERSION "unknown"
#endif

namespace bkt::clean {
namespace {

/// The comma-separated numbers of `text`, or nothing when one does not parse.
template <class Number>
std::optional<std::vector<Number>> parse_list(std::string_view text) {
  std::vector<Number> values;
  while (true) {
    const auto comma = text.find(',');
    const std::string_view field = text.substr(0, comma);
    Number value{};
    const auto [end, code] = std::from_chars(field.data(), field.data() + field.size(), value);
    if (field.empty() || code != std::errc{} || end != field.data() + field.size()) return std::nullopt;
    values.push_back(value);
    if (comma == std::string_view::npos) return values;
    text.remove_prefix(comma + 1);
  }
}

/// A validator with an empty description, so that --help shows the type name alone.
CLI::Validator check(std::function<std::string(std::string&)> test) { return CLI::Validator(std::move(test), ""); }

std::string format_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

constexpr const char* description =
    "CLEAN deconvolution of a radio image: subtracts scaled copies of the PSF from DIRTY.fits at its peaks "
    "(Hogbom; Clark, with major cycles by FFT; or multiscale, with Gaussian scales as WSClean's -multiscale) until "
    "--niter components, the threshold, or divergence; then restores the components with a Gaussian beam fitted "
    "to the PSF's main lobe. On the GPU when there is one, else on the CPU.\n\n"
    "Inputs: FITS images (BITPIX 8/16/32/-32/-64, NAXIS 2 to 4; the image on axes 1 and 2, frequency or Stokes "
    "on 3 and 4). PSF.fits has the image's size or twice it, its peak at pixel (N/2, N/2) 0-based. A cube "
    "(an axis 3 or 4 longer than 1) is deconvolved plane by plane, or with --join-channels its channels together. "
    "--join-channels NAME reads WSClean's per-channel files NAME-0000-dirty.fits, NAME-0000-psf.fits, ... (and "
    "NAME-MFS-psf.fits, NAME-MFS-dirty.fits when present).\n\n"
    "Outputs beside --prefix P: P-model.fits (JY/PIXEL), P-residual.fits and P-image.fits (the restored image, "
    "JY/BEAM) with the dirty image's header, BMAJ/BMIN/BPA and HISTORY; P-restored.fits, a link to the restored "
    "image under its former name (kept for one release); P-sources.txt (WSClean source list); P-components.json. "
    "Joined channels: P-000N-model/residual/image.fits per channel file (or the cubes), and "
    "P-MFS-model/residual/image.fits. A summary goes to standard output.";

/// An option's value in (0, 1].
CLI::Validator fraction_check() {
  return check([](std::string& text) {
    double value = 0;
    const auto [end, code] = std::from_chars(text.data(), text.data() + text.size(), value);
    return code == std::errc{} && end == text.data() + text.size() && value > 0 && value <= 1
               ? std::string()
               : bkt::apps::quoted_excerpt(text) + " is not in (0, 1]";
  });
}

std::optional<algorithm> algorithm_named(const std::string& name) {
  if (name == "hogbom") return algorithm::hogbom;
  if (name == "clark") return algorithm::clark;
  if (name == "multiscale") return algorithm::multiscale;
  return std::nullopt;
}

/// --multiscale, --multiscale-*, --join-channels and --fit-spectral-pol (WSClean's names).
void add_joint_options(CLI::App& app, options& opts) {
  app.add_flag_callback(
      "--multiscale",
      [&opts] {
        opts.multiscale_flag = true;
        opts.method = algorithm::multiscale;
      },
      "multiscale CLEAN (--algorithm multiscale), as WSClean's -multiscale: components at several scales "
      "(--multiscale-shape), chosen by their peaks weighted by --multiscale-scale-bias");
  // Each --multiscale-* option notes that it was given: without --multiscale it would do nothing.
  const auto note = [&opts](const char* name) {
    if (opts.multiscale_option_given.empty()) opts.multiscale_option_given = name;
  };
  app.add_option_function<std::string>(
         "--multiscale-scales",
         [&opts, note](const std::string& text) {
           opts.multiscale.scales = *parse_list<double>(text);
           note("--multiscale-scales");
         },
         "the scales, comma-separated pixels (0 is the point scale); default: 0, then 4 x the beam's minor axis, "
         "doubling up to half the image")
      ->type_name("LIST")
      ->check(check([](std::string& text) {
        const auto values = parse_list<double>(text);
        if (!values) return bkt::apps::quoted_excerpt(text) + " is not a comma-separated list of pixels";
        for (double value : *values)
          if (!std::isfinite(value) || value < 0) return bkt::apps::quoted_excerpt(text) + ": every scale must be >= 0";
        return std::string();
      }));
  app.add_option_function<double>(
         "--multiscale-scale-bias",
         [&opts, note](double bias) {
           opts.multiscale.scale_bias = bias;
           note("--multiscale-scale-bias");
         },
         "the weight of larger scales' peaks, bias^-log2(scale / (2 x beam)) (default 0.6)")
      ->type_name("BIAS")
      ->check(fraction_check());
  app.add_option_function<std::string>(
         "--multiscale-shape",
         [&opts, note](const std::string& name) {
           opts.multiscale.shape = name == "tapered-quadratic" ? scale_shape::tapered_quadratic : scale_shape::gaussian;
           note("--multiscale-shape");
         },
         "gaussian (default: WSClean cleans with Gaussian scales whenever it writes a source list, which bkt-clean "
         "always does) or tapered-quadratic (WSClean's default without a source list)")
      ->type_name("SHAPE")
      ->check(check([](std::string& name) {
        return name == "gaussian" || name == "tapered-quadratic"
                   ? std::string()
                   : bkt::apps::quoted_excerpt(name) + " is not gaussian or tapered-quadratic";
      }));
  app.add_option_function<double>(
         "--multiscale-gain",
         [&opts, note](double gain) {
           opts.multiscale.gain = gain;
           note("--multiscale-gain");
         },
         "end a sub-minor loop once its scale's peak fell by this fraction (default 0.2)")
      ->type_name("G")
      ->check(fraction_check());
  app.add_option_function<std::int64_t>(
         "--multiscale-max-scales",
         [&opts, note](std::int64_t count) {
           opts.multiscale.max_scales = count;
           note("--multiscale-max-scales");
         },
         "at most this many automatic scales (default: as many as fit)")
      ->type_name("N")
      ->transform(bkt::apps::whole_number(1));
  app.add_flag("--join-channels", opts.join_channels,
               "deconvolve the channels together (WSClean's -join-channels): the planes of a cube, or with a single "
               "NAME the files NAME-0000-dirty.fits, NAME-0000-psf.fits, NAME-0001-..., peaks found in their weighted "
               "sum (weights: each file's WSCIMGWG, else equal)");
  app.add_option("--nmiter", opts.max_major_cycles,
                 "with --multiscale or --join-channels: stop after N major cycles (WSClean's -nmiter; default: no "
                 "limit)")
      ->type_name("N")
      ->transform(bkt::apps::whole_number(1));
  app.add_option("--fit-spectral-pol", opts.spectral_terms,
                 "with --join-channels: fit each component's fluxes over frequency with a polynomial of N terms "
                 "(1 to 8), as WSClean's -fit-spectral-pol")
      ->type_name("N")
      ->transform(bkt::apps::whole_number(1, max_spectral_terms));
}

}  // namespace

std::string algorithm_name(algorithm method) {
  switch (method) {
    case algorithm::hogbom: return "hogbom";
    case algorithm::clark: return "clark";
    case algorithm::multiscale: return "multiscale";
  }
  return "hogbom";
}

void add_options(CLI::App& app, options& opts) {
  app.description(description);
  app.add_option("DIRTY", opts.dirty_path,
                 "the dirty image or cube (FITS); with --join-channels and no PSF, the NAME of WSClean's "
                 "NAME-0000-dirty.fits, NAME-0000-psf.fits, ...")
      ->required()
      ->type_name("DIRTY.fits");
  app.add_option("PSF", opts.psf_path, "the point spread function (FITS), peak at pixel (N/2, N/2)")
      ->type_name("PSF.fits");
  app.add_flag("--psf-beam", opts.psf_from_beam,
               "no PSF file: use the Gaussian restoring beam in DIRTY's header (BMAJ/BMIN/BPA) as the PSF, for an "
               "image that is already the sky convolved with that beam (a restored or smoothed map)");
  app.add_option("--prefix,--name", opts.prefix,
                 "write PREFIX-model.fits, -residual.fits, -image.fits (with the former name -restored.fits a link to "
                 "it), -sources.txt, -components.json (all whole or none at all); --name is WSClean's spelling")
      ->required()
      ->type_name("PREFIX");
  bkt::apps::add_common_flags(app, opts.common, "bkt-clean");
  app.get_option("--json")->description("write the summary as JSON to FILE ('-': standard output, instead of the "
                                        "text summary)");

  app.add_option_function<std::string>(
         "--algorithm",
         [&opts](const std::string& name) {
           opts.method = *algorithm_named(name);
           opts.algorithm_given = opts.method;
         },
         "hogbom (default), clark (minor cycles on the bright pixels, major cycles by FFT) or multiscale (as "
         "--multiscale)")
      ->type_name("NAME")
      ->check(check([](std::string& name) {
        return algorithm_named(name) ? std::string()
                                     : bkt::apps::quoted_excerpt(name) + " is not hogbom, clark or multiscale";
      }));
  app.add_option("--niter", opts.niter, "most components to take, over all major cycles (default 1000)")
      ->type_name("N")
      ->transform(bkt::apps::whole_number(0));
  const auto fraction = fraction_check();
  app.add_option("--gain", opts.gain, "loop gain: the fraction of the peak taken per component (default 0.1)")
      ->type_name("G")
      ->check(fraction);
  app.add_option("--mgain", opts.mgain,
                 "Clark, multiscale, joined channels: end a major cycle once the peak fell by this fraction "
                 "(default 0.8)")
      ->type_name("G")
      ->check(fraction);
  app.add_option("--threshold", opts.threshold, "stop once the peak |residual| is at or below this, in image units "
                                                "(Jy/beam; default 0)")
      ->type_name("FLUX")
      ->check(bkt::apps::number_at_least(0));
  app.add_option_function<double>(
         "--auto-threshold", [&opts](double sigma) { opts.auto_threshold = sigma; },
         "stop at SIGMA x the residual's noise (1.4826 x median absolute deviation), measured again at every cycle "
         "(each time the peak has fallen by --mgain), as WSClean does; or at --threshold if higher")
      ->type_name("SIGMA")
      ->check(bkt::apps::number_above(0));
  app.add_option_function<double>(
         "--auto-mask", [&opts](double sigma) { opts.auto_mask = sigma; },
         "clean without a mask down to SIGMA x the noise, then only at the pixels that hold components, down to "
         "--auto-threshold (or --threshold), as WSClean's -auto-mask")
      ->type_name("SIGMA")
      ->check(bkt::apps::number_above(0));
  app.add_option("--mask", opts.mask_path, "components only where this FITS image (the dirty image's size) is nonzero")
      ->type_name("MASK.fits");
  app.add_option_function<std::string>(
         "--mask-box",
         [&opts](const std::string& text) {
           const auto values = *parse_list<std::int64_t>(text);
           opts.mask_box = pixel_box{values[0], values[1], values[2], values[3]};
         },
         "components only inside this box, 0-based pixels, corners included (with --mask: inside both)")
      ->type_name("X0,Y0,X1,Y1")
      ->check(check([](std::string& text) {
        const auto values = parse_list<std::int64_t>(text);
        if (!values || values->size() != 4) return bkt::apps::quoted_excerpt(text) + " is not X0,Y0,X1,Y1 (four integers)";
        const auto& v = *values;
        if (v[0] < 0 || v[1] < 0 || v[2] < v[0] || v[3] < v[1])
          return bkt::apps::quoted_excerpt(text) + " is not a box: need 0 <= X0 <= X1 and 0 <= Y0 <= Y1";
        return std::string();
      }));
  app.add_option_function<std::string>(
         "--beam",
         [&opts](const std::string& text) {
           if (text == "fit") {
             opts.beam.reset();
             return;
           }
           const auto values = *parse_list<double>(text);
           opts.beam = sky_beam{values[0] / 3600, values[1] / 3600, values[2]};
         },
         "restoring beam: fit (default: a Gaussian fitted to the PSF's main lobe) or BMAJ,BMIN,BPA in arcsec, "
         "arcsec, degrees east of north")
      ->type_name("fit|BMAJ,BMIN,BPA")
      ->check(check([](std::string& text) {
        if (text == "fit") return std::string();
        const auto values = parse_list<double>(text);
        if (!values || values->size() != 3) return bkt::apps::quoted_excerpt(text) + " is not fit or BMAJ,BMIN,BPA (three numbers)";
        if (!((*values)[1] > 0 && (*values)[0] >= (*values)[1]) || !std::isfinite((*values)[0]) || !std::isfinite((*values)[2]))
          return bkt::apps::quoted_excerpt(text) + ": need BMAJ >= BMIN > 0";
        return std::string();
      }));
  app.add_option_function<std::int64_t>(
         "--plane", [&opts](std::int64_t plane) { opts.plane = plane; },
         "deconvolve only this plane of a cube (0-based, axes 3 and 4 flattened); default: every plane")
      ->type_name("N")
      ->transform(bkt::apps::whole_number(0));
  add_joint_options(app, opts);
  app.add_option("--plot", opts.plot_path, "draw the restored and residual images with sky axes, colour bars and the beam to FILE: .png, .svg or .pdf")
      ->type_name("FILE");
}

namespace {

/// The options that need or exclude others, around the joint engine.
void check_joint_options(const options& opts) {
  if (opts.multiscale_flag && opts.algorithm_given && *opts.algorithm_given != algorithm::multiscale)
    throw bkt::apps::usage_error("--multiscale and --algorithm " + algorithm_name(*opts.algorithm_given) +
                                 ": give one method");
  if (!opts.multiscale_option_given.empty() && opts.method != algorithm::multiscale)
    throw bkt::apps::usage_error(opts.multiscale_option_given + " needs --multiscale");
  if (opts.spectral_terms > 0 && !opts.join_channels)
    throw bkt::apps::usage_error("--fit-spectral-pol needs --join-channels: the fit is over the joined channels");
  if (opts.max_major_cycles > 0 && opts.method != algorithm::multiscale && !opts.join_channels)
    throw bkt::apps::usage_error("--nmiter needs --multiscale or --join-channels: Hogbom and Clark alone stop by "
                                 "--niter and the threshold");
  if (opts.join_channels && opts.plane)
    throw bkt::apps::usage_error("--plane and --join-channels: joined channels are deconvolved all together");
}

}  // namespace

void check_options(const options& opts) {
  if (opts.psf_from_beam && !opts.psf_path.empty()) throw bkt::apps::usage_error("give PSF.fits or --psf-beam, not both");
  // --join-channels NAME alone names WSClean's per-channel files, each channel with its PSF.
  if (opts.psf_path.empty() && !opts.psf_from_beam && !opts.join_channels)
    throw bkt::apps::usage_error("PSF.fits is required (or --psf-beam for the header's beam)");
  if (opts.psf_from_beam && opts.join_channels)
    throw bkt::apps::usage_error("--psf-beam and --join-channels: joined channels are deconvolved with their PSFs; "
                                 "give PSF.fits, or NAME for NAME-0000-psf.fits, ...");
  check_joint_options(opts);
  // An empty prefix would write "-model.fits" and friends into the current directory, names
  // that read as options; a prefix ending in '/' would hide them as "DIR/-model.fits".
  if (opts.prefix.empty()) throw bkt::apps::usage_error("--prefix: the prefix is empty; give one such as out or DIR/out");
  if (opts.prefix.back() == '/')
    throw bkt::apps::usage_error("--prefix " + bkt::apps::quoted_excerpt(opts.prefix) +
                                 " ends in '/': give a name after the directory, such as " +
                                 bkt::apps::quoted_excerpt(opts.prefix + "out"));
  if (!opts.plot_path.empty() && !bkt::apps::plot::file_format_of(opts.plot_path))
    throw bkt::apps::usage_error("--plot " + bkt::apps::quoted_excerpt(opts.plot_path) + ": the name must end in " +
                                 bkt::apps::plot::file_extensions);
  if (opts.auto_mask && opts.auto_threshold && *opts.auto_mask <= *opts.auto_threshold)
    throw bkt::apps::usage_error("--auto-mask " + format_number(*opts.auto_mask) + " must be above --auto-threshold " +
                                 format_number(*opts.auto_threshold) + ": the mask is made at the higher level");
}

std::vector<std::string> history_lines(const options& opts) {
  std::string settings = "bkt-clean " BKT_VERSION ": " + algorithm_name(opts.method) +
                         " niter=" + std::to_string(opts.niter) + " gain=" + format_number(opts.gain) +
                         " mgain=" + format_number(opts.mgain) + " threshold=" + format_number(opts.threshold);
  if (opts.auto_threshold) settings += " auto-threshold=" + format_number(*opts.auto_threshold);
  if (opts.auto_mask) settings += " auto-mask=" + format_number(*opts.auto_mask);
  if (opts.method == algorithm::multiscale) {
    settings += " multiscale-shape=" + scale_shape_name(opts.multiscale.shape) +
                " multiscale-scale-bias=" + format_number(opts.multiscale.scale_bias) +
                " multiscale-gain=" + format_number(opts.multiscale.gain);
    if (!opts.multiscale.scales.empty()) {
      std::string list;
      for (double scale : opts.multiscale.scales) list += (list.empty() ? "" : ",") + format_number(scale);
      settings += " multiscale-scales=" + list;
    }
    if (opts.multiscale.max_scales > 0) settings += " multiscale-max-scales=" + std::to_string(opts.multiscale.max_scales);
  }
  if (opts.join_channels) settings += " join-channels";
  if (opts.spectral_terms > 0) settings += " fit-spectral-pol=" + std::to_string(opts.spectral_terms);
  if (opts.max_major_cycles > 0) settings += " nmiter=" + std::to_string(opts.max_major_cycles);
  std::vector<std::string> lines{settings};
  std::string inputs = "bkt-clean: dirty=" + opts.dirty_path + " psf=" + (opts.psf_from_beam ? std::string("header-beam") : opts.psf_path);
  if (!opts.mask_path.empty()) inputs += " mask=" + opts.mask_path;
  if (opts.mask_box)
    inputs += " mask-box=" + std::to_string(opts.mask_box->x0) + "," + std::to_string(opts.mask_box->y0) + "," +
              std::to_string(opts.mask_box->x1) + "," + std::to_string(opts.mask_box->y1);
  if (opts.plane) inputs += " plane=" + std::to_string(*opts.plane);
  lines.push_back(inputs);
  if (opts.beam)
    lines.push_back("bkt-clean: beam=" + format_number(opts.beam->major_deg * 3600) + "," +
                    format_number(opts.beam->minor_deg * 3600) + "," + format_number(opts.beam->position_angle_deg));
  return lines;
}

}  // namespace bkt::clean
