// Where the host API (namespace bkt::host) runs.
#pragma once

namespace bkt::host {

/// automatic: the GPU when bkt::gpu_available(), else the CPU path. gpu: the GPU or a bkt::error.
/// cpu: the CPU path: bkt::ref's algorithm, or a multithreaded one where the primitive has it
/// (radix sort).
enum class backend { automatic, gpu, cpu };

}  // namespace bkt::host
