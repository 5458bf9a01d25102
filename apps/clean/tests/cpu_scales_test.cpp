// Multiscale's scale list (joint/scale_kernels.hpp): WSClean's automatic list where the PSF samples
// every scale, and the scales an interferometer cannot see left out.
#include <gtest/gtest.h>

#include <cmath>

#include "bkt_apps/app_error.hpp"
#include "deconvolve.hpp"
#include "joint/scale_kernels.hpp"
#include "synthetic/uv_psf.hpp"
#include "wsclean_field.hpp"

namespace bkt::clean {
namespace {

using namespace clean_test;

/// The PSF of the synthetic Y array at 1024^2: its shortest baselines see scales up to about 250 px.
image y_array_psf() {
  synthetic::uv_coverage_config coverage;
  coverage.width = coverage.height = 1024;
  return synthetic::make_uv_psf(coverage);
}

void expect_usable(const scale_set& set) {
  for (const scale_info& scale : set.scales) {
    SCOPED_TRACE("scale " + std::to_string(scale.size));
    EXPECT_GT(scale.psf_peak, 0);
    EXPECT_TRUE(std::isfinite(scale.gain));
    EXPECT_GT(scale.gain, 0);
  }
}

TEST(multiscale_scales, wsclean_field_keeps_every_automatic_scale_below_half_the_image) {
  const image psf = read_fits_image(wsclean_field_file("sim-MFS-psf.fits")).planes.front();
  const double beam = fit_beam(psf).minor_fwhm;
  for (const scale_shape shape : {scale_shape::tapered_quadratic, scale_shape::gaussian}) {
    multiscale_settings settings;
    settings.shape = shape;
    const scale_set set = make_scales(settings, beam, 0.1, psf, psf.width / 2, psf.height / 2);
    SCOPED_TRACE(scale_shape_name(shape));
    EXPECT_TRUE(set.dropped.empty());
    ASSERT_EQ(set.scales.size(), 5u);  // 0, then 4 x beam doubling while below 128 px
    EXPECT_EQ(set.scales.front().size, 0.0);
    EXPECT_NEAR(set.scales[1].size, 4 * beam, 1e-12);
    EXPECT_LT(set.scales.back().size, 128.0);
    EXPECT_GE(2 * set.scales.back().size, 128.0);
    expect_usable(set);
  }
}

TEST(multiscale_scales, automatic_list_ends_at_the_first_scale_the_array_cannot_see) {
  const image psf = y_array_psf();
  const double beam = fit_beam(psf).minor_fwhm;
  for (const scale_shape shape : {scale_shape::tapered_quadratic, scale_shape::gaussian}) {
    multiscale_settings settings;
    settings.shape = shape;
    const scale_set set = make_scales(settings, beam, 0.1, psf, 1024, 1024);
    SCOPED_TRACE(scale_shape_name(shape));
    // 0, 14.8, ..., 236 px are seen; 473 px lies beyond the shortest baselines and is the one dropped.
    ASSERT_EQ(set.scales.size(), 6u);
    ASSERT_EQ(set.dropped.size(), 1u);
    EXPECT_NEAR(set.dropped.front().size, 2 * set.scales.back().size, 1e-9);
    EXPECT_LT(set.dropped.front().sampled_fraction, 0.2);
    expect_usable(set);
  }
}

TEST(multiscale_scales, given_scales_the_array_cannot_see_are_left_out) {
  const image psf = y_array_psf();
  multiscale_settings settings;
  settings.scales = {100, 480, 20, 100};
  const scale_set set = make_scales(settings, 3.7, 0.1, psf, 1024, 1024);
  ASSERT_EQ(set.scales.size(), 2u);
  EXPECT_EQ(set.scales[0].size, 20.0);
  EXPECT_EQ(set.scales[1].size, 100.0);
  EXPECT_GT(set.scales[1].bias, set.scales[0].bias);
  ASSERT_EQ(set.dropped.size(), 1u);
  EXPECT_EQ(set.dropped.front().size, 480.0);
  expect_usable(set);

  settings.scales = {30, 480};
  const scale_set single = make_scales(settings, 3.7, 0.1, psf, 1024, 1024);
  ASSERT_EQ(single.scales.size(), 1u);
  EXPECT_EQ(single.scales.front().bias, 1.0);  // one scale: nothing to weigh it against

  settings.scales = {480};
  EXPECT_THROW(make_scales(settings, 3.7, 0.1, psf, 1024, 1024), bkt::apps::app_error);
}

}  // namespace
}  // namespace bkt::clean
