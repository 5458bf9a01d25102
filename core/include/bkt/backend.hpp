// Where the host API (namespace bkt::host) runs.
#pragma once

namespace bkt::host {

/// automatic: the GPU when bkt::gpu_available(), else the CPU reference. gpu: the GPU or a
/// bkt::error. cpu: the CPU reference.
enum class backend { automatic, gpu, cpu };

}  // namespace bkt::host
