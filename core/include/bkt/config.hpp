// Small portability macros shared by the public headers.
#pragma once

#if defined(__CUDACC__)
#define BKT_HOST_DEVICE __host__ __device__
#else
#define BKT_HOST_DEVICE
#endif
