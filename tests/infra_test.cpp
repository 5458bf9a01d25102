// The infrastructure every primitive stands on: errors, the GPU probe, buffers and workspaces.
#include <gtest/gtest.h>

#include "bkt/device_buffer.hpp"
#include "bkt/error.hpp"
#include "bkt/gpu.hpp"
#include "bkt/workspace.hpp"
#include "support/checks.hpp"

namespace {

TEST(infra, cuda_errors_name_the_call_file_and_line) {
  try {
    BKT_CUDA_CHECK(cudaErrorInvalidValue);
    FAIL() << "no exception";
  } catch (const bkt::error& e) {
    EXPECT_EQ(e.code(), cudaErrorInvalidValue);
    EXPECT_NE(std::string(e.what()).find("cudaErrorInvalidValue"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.file()).find("infra_test.cpp"), std::string::npos);
    EXPECT_GT(e.line(), 0);
    EXPECT_FALSE(e.out_of_memory());
  }
}

TEST(infra, preconditions_throw_with_the_message) {
  try {
    BKT_EXPECTS(1 + 1 == 3, "arithmetic is off");
    FAIL() << "no exception";
  } catch (const bkt::error& e) {
    EXPECT_STREQ(e.what(), "arithmetic is off");
    EXPECT_EQ(e.code(), cudaSuccess);
  }
}

TEST(infra, gpu_probe_agrees_with_its_reason) {
  const bool available = bkt::gpu_available();
  EXPECT_EQ(available, bkt::gpu_unavailable_reason().empty()) << bkt::gpu_unavailable_reason();
  if (!available) EXPECT_THROW((void)bkt::current_device_info(), bkt::error);
}

TEST(infra, empty_buffers_and_fixed_workspaces_need_no_gpu) {
  bkt::device_buffer<float> empty(0, nullptr);
  EXPECT_EQ(empty.data(), nullptr);
  EXPECT_TRUE(empty.empty());
  EXPECT_THROW(bkt::device_buffer<float>(-1, nullptr), bkt::error);
  bkt::workspace fixed(nullptr, 0);
  EXPECT_TRUE(fixed.fixed());
  EXPECT_EQ(fixed.reserve(0, nullptr), nullptr);
  EXPECT_THROW((void)fixed.reserve(1, nullptr), bkt::error);
  EXPECT_THROW(bkt::workspace(reinterpret_cast<void*>(8), 64), bkt::error) << "unaligned";
}

TEST(infra, device_info_and_out_of_memory) {
  BKT_REQUIRE_GPU();
  const auto info = bkt::current_device_info();
  EXPECT_GT(info.multiprocessors, 0);
  EXPECT_FALSE(info.name.empty());
  // Asking for far more than the device holds raises bkt::error, not a crash.
  try {
    bkt::device_buffer<std::byte> huge(info.global_memory_bytes * 4, nullptr);
    FAIL() << "allocated four times the device memory";
  } catch (const bkt::error& e) {
    EXPECT_TRUE(e.out_of_memory()) << e.what();
  }
  // A growable workspace grows, keeps its block for smaller requests, and moves on.
  bkt::workspace ws;
  void* first = ws.reserve(1000, nullptr);
  EXPECT_EQ(ws.reserve(10, nullptr), first);
  EXPECT_GE(ws.capacity(), 1000u);
  (void)ws.reserve(1 << 20, nullptr);
  EXPECT_GE(ws.capacity(), std::size_t{1} << 20);
  EXPECT_EQ(cudaStreamSynchronize(nullptr), cudaSuccess);
}

}  // namespace
