// Scratch memory of the bkt::dist calls.
#pragma once

#include "bkt/workspace.hpp"

namespace bkt::dist {

/// Two growing blocks of device memory, reused across calls: the call's own buffers (received
/// keys, samples, counts) and, apart, the workspace of the single-GPU primitives it runs (radix
/// sort, top_k, histograms), which reserve theirs while the call's own buffers are in use. Like
/// bkt::workspace it serves one stream at a time and never shrinks.
class workspace {
 public:
  bkt::workspace& own() noexcept { return own_; }
  bkt::workspace& primitives() noexcept { return primitives_; }

 private:
  bkt::workspace own_;
  bkt::workspace primitives_;
};

}  // namespace bkt::dist
