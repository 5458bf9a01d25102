#include "bkt/dist/error.hpp"

#include <mpi.h>
#include <nccl.h>

#include <string>

namespace bkt::dist::detail {
namespace {

std::string on_rank(int rank) { return rank >= 0 ? " on rank " + std::to_string(rank) : std::string(); }

}  // namespace

void throw_nccl_error(int result, const char* call, int rank, const char* file, int line) {
  std::string what = std::string("NCCL error") + on_rank(rank) + ": " +
                     ncclGetErrorString(static_cast<ncclResult_t>(result)) + " (in " + call + ")";
  // NCCL keeps a readable account of the last failure (a peer that died, a missing transport).
  if (const char* detail = ncclGetLastError(nullptr); detail != nullptr && detail[0] != '\0')
    what += ": " + std::string(detail);
  throw comm_error(what, result, file, line);
}

void throw_mpi_error(int code, const char* call, int rank, const char* file, int line) {
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) length = 0;
  throw comm_error(std::string("MPI error") + on_rank(rank) + ": " + std::string(text, length) + " (in " + call + ")",
                   code, file, line);
}

}  // namespace bkt::dist::detail
