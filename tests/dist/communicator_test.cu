// The communicator: ranks as MPI numbers them, a barrier that returns on every rank, and a second
// communicator made from an NCCL unique id (a caller with its own launcher) that sorts like the
// first.
#include <gtest/gtest.h>
#include <mpi.h>

#include <memory>

#include "bkt/dist/communicator.hpp"
#include "dist_support.hpp"
#include "sort_run.cuh"
#include "support/device_run.hpp"

namespace {

using namespace bkt::test;
using namespace bkt::test::dist;

TEST(dist_communicator, ranks_follow_mpi) {
  BKT_REQUIRE_DIST();
  int rank = -1, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  EXPECT_EQ(comm().rank(), rank);
  EXPECT_EQ(comm().size(), size);
  int device = -1;
  EXPECT_EQ(cudaGetDevice(&device), cudaSuccess);
  EXPECT_EQ(device, comm().device());
  test_stream stream;
  comm().barrier(stream);
  comm().barrier(stream);
}

TEST(dist_communicator, one_made_from_a_unique_id_works_alike) {
  BKT_REQUIRE_DIST();
  bkt::dist::unique_id id{};
  if (comm().rank() == 0) id = bkt::dist::make_unique_id();
  MPI_Bcast(&id, sizeof(id), MPI_BYTE, 0, MPI_COMM_WORLD);
  bkt::dist::communicator second(id, comm().rank(), comm().size(), comm().device());
  EXPECT_EQ(second.rank(), comm().rank());
  EXPECT_EQ(second.size(), comm().size());
  test_stream stream;
  second.barrier(stream);
  bkt::dist::workspace ws;
  const std::int64_t n = 30011;
  const auto all = generators<std::int64_t>()[0].make(n, seed());
  const auto sizes = layouts()[3].sizes(n, second.size());
  auto d_part = to_device<std::int64_t>(my_part(all, sizes, second.rank()), stream);
  const std::int64_t capacity = bkt::dist::sort_capacity(n, second.size());
  auto out = poisoned_buffer<std::int64_t>(capacity, stream);
  const auto result = bkt::dist::sort_keys<std::int64_t>(second, d_part.span(), out.span(), ws, stream);
  bkt::workspace single_ws;
  auto d_all = to_device<std::int64_t>(all, stream);
  auto want = poisoned_buffer<std::int64_t>(n, stream);
  bkt::radix_sort_keys<std::int64_t>(d_all.span(), want.span(), single_ws, stream);
  expect_tiling(result, n, capacity);
  const auto got = to_host(out);
  const auto expected = to_host(want);
  EXPECT_TRUE(bitwise_equal<std::int64_t>(std::span<const std::int64_t>(expected).subspan(result.global_first, result.count),
                                          std::span<const std::int64_t>(got).first(result.count)));
}

}  // namespace
