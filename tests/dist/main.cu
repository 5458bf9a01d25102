// The bkt::dist GPU tests' main: MPI up, one seed for every rank, one communicator for the run,
// progress printed by rank 0 and failures by every rank, and a verdict that fails the job when any
// rank failed. Run as `mpirun -np N bkt_dist_tests` (N GPUs on the node).
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "bkt/dist/communicator.hpp"
#include "bkt/gpu.hpp"
#include "dist_support.hpp"

namespace bkt::test::dist {
namespace {

std::unique_ptr<bkt::dist::communicator> run_communicator;

/// Creates the communicator once every rank is up, destroys it before MPI_Finalize.
class communicator_environment : public ::testing::Environment {
 public:
  void SetUp() override {
    // Every rank decides alike: the communicator is collective.
    const int usable = bkt::gpu_available() ? 1 : 0;
    int everywhere = 0;
    MPI_Allreduce(&usable, &everywhere, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (everywhere != 1) return;
    try {
      run_communicator = std::make_unique<bkt::dist::communicator>(MPI_COMM_WORLD);
    } catch (const std::exception& e) {
      ADD_FAILURE() << "bkt::dist::communicator: " << e.what();
    }
  }
  void TearDown() override { run_communicator.reset(); }
};

/// Ranks other than 0 print only their failures, each line tagged with the rank.
class failure_printer : public ::testing::EmptyTestEventListener {
 public:
  explicit failure_printer(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& result) override {
    if (!result.failed()) return;
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    std::fprintf(stderr, "[rank %d] FAILED %s.%s at %s:%d\n%s\n", rank_, test ? test->test_suite_name() : "?",
                 test ? test->name() : "?", result.file_name() ? result.file_name() : "?", result.line_number(),
                 result.message());
  }

 private:
  int rank_;
};

}  // namespace

bkt::dist::communicator* communicator_or_null() { return run_communicator.get(); }

}  // namespace bkt::test::dist

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  // One seed for all: every rank generates the same global input and takes its part.
  std::uint64_t seed = rank == 0 ? bkt::test::seed() : 0;
  MPI_Bcast(&seed, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  setenv("BKT_TEST_SEED", std::to_string(seed).c_str(), 1);
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::AddGlobalTestEnvironment(new bkt::test::dist::communicator_environment);
  if (rank != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new bkt::test::dist::failure_printer(rank));
  }
  if (rank == 0) std::printf("bkt_dist_tests: seed %llu (BKT_TEST_SEED)\n", static_cast<unsigned long long>(seed));
  const int result = RUN_ALL_TESTS();
  int worst = 0;
  MPI_Allreduce(&result, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0 && worst != 0 && result == 0) std::printf("bkt_dist_tests: another rank failed (see its lines)\n");
  MPI_Finalize();
  return worst;
}
