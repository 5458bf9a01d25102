// The model, residual and restored images, the P-restored.fits link, the component lists, the plot
// and the --json summary appear together or not at all: a run that fails at any stage, or is killed by a signal, leaves
// every existing file as it was and no temporary. Runs use --cpu.
#include <csignal>
#include <filesystem>
#include <string>
#include <vector>

#include "bkt_apps_test/output_checks.hpp"
#include "tool_fixture.hpp"

namespace clean_test {
namespace {

using bkt::apps::test::directory_snapshot;
using bkt::apps::test::temporaries_in;

constexpr long side = 32;

class output_atomicity : public tool_test {
 protected:
  void SetUp() override {
    tool_test::SetUp();
    write_test_fits(path("dirty.fits"),
                    {-32, {side, side, 1, 1}, point_sources(side, side, 3, {{10, 12, 1.0}}), sky_cards(side, side), {}, {}, {}});
    write_test_fits(path("psf.fits"), {-32, {side, side, 1, 1}, gaussian_psf(side, side, 3), sky_cards(side, side), {}, {}, {}});
    // What an earlier run left: every output of this one exists already.
    for (const char* name : {"out-model.fits", "out-residual.fits", "out-image.fits", "out-restored.fits",
                             "out-sources.txt", "out-components.json", "plot.png", "summary.json"})
      write_file(path(name), std::string("old ") + name + "\n");
  }
  std::vector<std::string> outputs(const std::string& plot, const std::string& json) const {
    return {"--cpu", "--niter", "50", "--prefix", path("out"), "--plot", plot, "--json", json};
  }
  void expect_nothing_changes(std::vector<std::string> arguments, int code, const std::string& needle) {
    const auto before = directory_snapshot(directory_);
    expect_failure(run_clean_tool(arguments), code, {needle});
    EXPECT_EQ(directory_snapshot(directory_), before);
    EXPECT_TRUE(temporaries_in(directory_).empty());
  }
  std::vector<std::string> with(std::vector<std::string> inputs, const std::vector<std::string>& more) const {
    inputs.insert(inputs.end(), more.begin(), more.end());
    return inputs;
  }
};

TEST_F(output_atomicity, json_into_a_missing_directory_fails_before_the_work) {
  const std::string json = path("missing/summary.json");
  expect_nothing_changes(with({path("dirty.fits"), path("psf.fits")}, outputs(path("plot.png"), json)), 1,
                         json + ": cannot create: No such file or directory");
}

TEST_F(output_atomicity, an_unwritable_plot_path_fails_before_the_work) {
  const std::string plot = path("missing/plot.png");
  expect_nothing_changes(with({path("dirty.fits"), path("psf.fits")}, outputs(plot, path("summary.json"))), 1,
                         plot + ": cannot create: No such file or directory");
}

TEST_F(output_atomicity, a_bad_input_found_after_the_outputs_were_created) {
  write_file(path("notes.fits"), "this is a text file, not an image\n");
  expect_nothing_changes(with({path("dirty.fits"), path("notes.fits")}, outputs(path("plot.png"), path("summary.json"))),
                         1, path("notes.fits") + ": not a FITS file");
}

TEST_F(output_atomicity, an_input_is_never_an_output) {
  // --prefix dirty makes dirty-model.fits: an input of the run under that name.
  write_test_fits(path("dirty-model.fits"),
                  {-32, {side, side, 1, 1}, point_sources(side, side, 3, {{10, 12, 1.0}}), sky_cards(side, side), {}, {}, {}});
  expect_nothing_changes({path("dirty-model.fits"), path("psf.fits"), "--cpu", "--prefix", path("dirty")}, 2,
                         path("dirty-model.fits") + ": is also an input of this run");
  expect_nothing_changes(with({path("dirty.fits"), path("psf.fits")}, outputs(path("plot.png"), path("psf.fits"))), 2,
                         path("psf.fits") + ": is also an input of this run");
}

TEST_F(output_atomicity, a_successful_run_replaces_every_output) {
  const tool_run run =
      run_clean_tool(with({path("dirty.fits"), path("psf.fits")}, outputs(path("plot.png"), path("summary.json"))));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  for (const char* name : {"out-model.fits", "out-residual.fits", "out-image.fits", "out-restored.fits",
                           "out-sources.txt", "out-components.json", "plot.png", "summary.json"})
    EXPECT_NE(read_file(path(name)).substr(0, 4), "old ") << name;
  // The old file under the former name is now the link to the restored image.
  EXPECT_EQ(std::filesystem::read_symlink(path("out-restored.fits")), "out-image.fits");
  EXPECT_TRUE(temporaries_in(directory_).empty());
}

TEST_F(output_atomicity, a_signal_mid_run_leaves_no_temporary) {
  // The dirty image is a FIFO nobody writes: the tool waits there with its eight outputs created
  // (the P-restored.fits link among them).
  ASSERT_TRUE(bkt::apps::test::make_fifo(path("waiting.fits")));
  const auto before = directory_snapshot(directory_);
  const auto run = bkt::apps::test::run_and_signal(
      BKT_CLEAN_EXE, with({path("waiting.fits"), path("psf.fits")}, outputs(path("plot.png"), path("summary.json"))),
      directory_, 8);
  EXPECT_TRUE(run.temporaries_seen);
  EXPECT_TRUE(run.killed_by_signal) << "exit code " << run.exit_code;
  EXPECT_EQ(run.signal, SIGTERM);
  EXPECT_TRUE(temporaries_in(directory_).empty());
  EXPECT_EQ(directory_snapshot(directory_), before);
}

}  // namespace
}  // namespace clean_test
