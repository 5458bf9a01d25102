// The public element-wise sums over the ranks (bkt/dist/reduce.hpp).
#include "bkt/dist/reduce.hpp"

#include "access.hpp"
#include "collectives.hpp"

namespace bkt::dist {

void all_reduce_sum(const communicator& comm, std::span<std::int64_t> values, cudaStream_t stream) {
  const detail::device_scope device(comm.device());
  detail::all_reduce_sum(comm, values.data(), values.size(), nullptr, 0, stream);
}

void all_reduce_sum(const communicator& comm, std::span<double> values, cudaStream_t stream) {
  const detail::device_scope device(comm.device());
  detail::all_reduce_sum(comm, values.data(), values.size(), nullptr, 0, stream);
}

}  // namespace bkt::dist
