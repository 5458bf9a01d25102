// An owned, instantiated CUDA graph: built once, launched many times.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdio>
#include <utility>

#include "bkt/error.hpp"

namespace bkt::clean::gpu {

/// A graph that destroys itself; a member of executable_graph, so that a failure while building
/// or instantiating still frees it.
class owned_graph {
 public:
  owned_graph() = default;
  /// A new empty graph.
  static owned_graph create() {
    owned_graph made;
    BKT_CUDA_CHECK(cudaGraphCreate(&made.graph_, 0));
    return made;
  }
  owned_graph(owned_graph&& other) noexcept : graph_(std::exchange(other.graph_, nullptr)) {}
  owned_graph& operator=(owned_graph&& other) noexcept {
    std::swap(graph_, other.graph_);
    return *this;
  }
  owned_graph(const owned_graph&) = delete;
  owned_graph& operator=(const owned_graph&) = delete;
  ~owned_graph() {
    // Destructors must not throw: report and carry on.
    if (graph_ != nullptr)
      if (const cudaError_t code = cudaGraphDestroy(graph_); code != cudaSuccess)
        std::fprintf(stderr, "bkt-clean: cudaGraphDestroy failed: %s\n", cudaGetErrorString(code));
  }
  cudaGraph_t get() const noexcept { return graph_; }

 private:
  cudaGraph_t graph_ = nullptr;
};

/// A graph built by `build(cudaGraph_t)` and instantiated. Move-only.
class executable_graph {
 public:
  executable_graph() = default;
  template <class Build>
  explicit executable_graph(Build&& build) : graph_(owned_graph::create()) {
    build(graph_.get());
    BKT_CUDA_CHECK(cudaGraphInstantiate(&exec_, graph_.get(), 0));
  }
  executable_graph(executable_graph&& other) noexcept
      : graph_(std::move(other.graph_)), exec_(std::exchange(other.exec_, nullptr)) {}
  executable_graph& operator=(executable_graph&& other) noexcept {
    std::swap(graph_, other.graph_);
    std::swap(exec_, other.exec_);
    return *this;
  }
  executable_graph(const executable_graph&) = delete;
  executable_graph& operator=(const executable_graph&) = delete;
  ~executable_graph() {
    if (exec_ != nullptr)
      if (const cudaError_t code = cudaGraphExecDestroy(exec_); code != cudaSuccess)
        std::fprintf(stderr, "bkt-clean: cudaGraphExecDestroy failed: %s\n", cudaGetErrorString(code));
  }

  /// Enqueues one run of the graph on `stream`.
  void launch(cudaStream_t stream) const { BKT_CUDA_CHECK(cudaGraphLaunch(exec_, stream)); }

 private:
  owned_graph graph_;
  cudaGraphExec_t exec_ = nullptr;
};

}  // namespace bkt::clean::gpu
