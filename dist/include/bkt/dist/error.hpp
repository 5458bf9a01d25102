// Errors of bkt::dist: a failed NCCL or MPI call becomes a bkt::error (bkt/error.hpp) that names
// the call and the rank, like BKT_CUDA_CHECK does for CUDA calls.
#pragma once

#include <string>

#include "bkt/error.hpp"

namespace bkt::dist {

/// Thrown when an NCCL or MPI call fails. code() is cudaSuccess; library_code() is the
/// ncclResult_t or the MPI error code.
class comm_error : public bkt::error {
 public:
  comm_error(const std::string& what, int library_code, const char* file, int line)
      : bkt::error(what, cudaSuccess, file, line), library_code_(library_code) {}
  int library_code() const noexcept { return library_code_; }

 private:
  int library_code_;
};

namespace detail {
[[noreturn]] void throw_nccl_error(int result, const char* call, int rank, const char* file, int line);
[[noreturn]] void throw_mpi_error(int code, const char* call, int rank, const char* file, int line);

inline void check_nccl(int result, const char* call, int rank, const char* file, int line) {
  if (result != 0) throw_nccl_error(result, call, rank, file, line);  // 0 is ncclSuccess
}
inline void check_mpi(int code, const char* call, int rank, const char* file, int line) {
  if (code != 0) throw_mpi_error(code, call, rank, file, line);  // 0 is MPI_SUCCESS
}
}  // namespace detail
}  // namespace bkt::dist

/// Checks an NCCL call made by `rank` (-1 when not known yet); throws bkt::dist::comm_error.
#define BKT_NCCL_CHECK(rank, call) \
  ::bkt::dist::detail::check_nccl(static_cast<int>(call), #call, (rank), __FILE__, __LINE__)
/// Checks an MPI call made by `rank` (-1 when not known yet); throws bkt::dist::comm_error.
#define BKT_MPI_CHECK(rank, call) ::bkt::dist::detail::check_mpi((call), #call, (rank), __FILE__, __LINE__)
