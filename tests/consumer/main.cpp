// Selects the positive numbers through the host API: on the GPU when there is one, else the CPU.
#include <bkt/compact.hpp>
#include <bkt/gpu.hpp>
#include <bkt/types.hpp>

#include <cstdio>
#include <vector>

// The installed type lists expand in plain C++: compaction takes ten key types.
#define BKT_CONSUMER_COUNT(T) +1
static_assert(0 BKT_FOR_EACH_KEY_TYPE(BKT_CONSUMER_COUNT) == 10);

int main() {
  const std::vector<float> in = {3.0f, -1.0f, 2.5f, 0.0f, 7.0f};
  std::vector<float> out(in.size());
  const auto count = bkt::host::select_if<float>(in, out, {bkt::compare_op::greater, 0.0f});
  std::printf("%lld kept on the %s\n", static_cast<long long>(count), bkt::gpu_available() ? "GPU" : "CPU");
  return count == 3 && out[0] == 3.0f && out[1] == 2.5f && out[2] == 7.0f ? 0 : 1;
}
